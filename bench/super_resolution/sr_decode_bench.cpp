// MeshfreeFlowNet inference throughput: query points per second of the decoder (local implicit
// grid + ImNet, no gradients, float32) on a random latent grid, and the parameter count of the
// whole network for the same widths (the check that surrox and the PyTorch reference compare
// the same network). Prints one JSON line. Its PyTorch twin is pytorch_reference.py --mode
// infer; compare_pytorch.sh runs both.
//
// Usage: bench_sr_decode nt nz nx latent unet_filters unet_max_filters imnet_filters activation
//                        batch points repeats threads
#include <torch/torch.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "surrogates/super_resolution/meshfree_flow_net.hpp"

int main(int argc, char** argv) {
  namespace srm = surrox::surrogates::super_resolution;
  if (argc != 13) {
    std::cerr << "usage: bench_sr_decode nt nz nx latent unet_filters unet_max_filters "
                 "imnet_filters activation batch points repeats threads\n";
    return 2;
  }
  srm::MeshfreeFlowNetOptions o;
  o.grid = {std::atol(argv[1]), std::atol(argv[2]), std::atol(argv[3])};
  o.latent = std::atol(argv[4]);
  o.unet_filters = std::atol(argv[5]);
  o.unet_max_filters = std::atol(argv[6]);
  o.imnet_filters = std::atol(argv[7]);
  o.activation = argv[8];
  const long batch = std::atol(argv[9]), points = std::atol(argv[10]),
             repeats = std::atol(argv[11]);
  torch::set_num_threads(std::atoi(argv[12]));
  torch::manual_seed(1);
  srm::MeshfreeFlowNet net(o);
  net->eval();
  long parameters = 0, imnet_parameters = 0;
  for (const auto& p : net->parameters()) parameters += p.numel();
  for (const auto& p : net->imnet()->parameters()) imnet_parameters += p.numel();

  const torch::Tensor latent = torch::randn({batch, o.latent, o.grid[0], o.grid[1], o.grid[2]});
  const torch::Tensor query = torch::rand({batch, points, 3});
  torch::NoGradGuard no_grad;
  net->decode(latent, query);  // warm-up: allocator, first-call dispatch
  const auto start = std::chrono::steady_clock::now();
  double checksum = 0;
  for (long r = 0; r < repeats; ++r) checksum += net->decode(latent, query).sum().item<double>();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << nlohmann::json{{"parameters", parameters},
                              {"imnet_parameters", imnet_parameters},
                              {"query_points_per_second",
                               double(batch * points * repeats) / seconds},
                              {"checksum", checksum}}
                   .dump()
            << std::endl;
  return 0;
}
