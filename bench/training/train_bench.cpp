// Training throughput of surrox's trainer on the per-point MLP of the airfoil surrogate
// (5 inputs → 4 × 256 GELU → 4 outputs, Adam, MSE, float32), on synthetic rows. Prints one
// JSON line with samples/s; under mpirun the same global batches are split over the ranks
// (gradient sums over MPI or Gloo), which gives the data-parallel efficiency
// (data_parallel_efficiency.sh). Its PyTorch twin is train_bench.py; compare_pytorch.sh runs
// both side by side.
//
// Usage: bench_train [rows] [batch] [epochs] [threads] [mpi|gloo]
// The last argument says how gradient buckets in host memory are summed over ranks: MPI's
// allreduce (the default) or the c10d Gloo process group over TCP.
#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include "core/runtime.hpp"
#include "io/case_file.hpp"
#include "surrogates/networks.hpp"
#include "training/collective_data_parallel.hpp"
#include "training/trainer.hpp"

int main(int argc, char** argv) {
  using namespace surrox;
  RuntimeOptions options;
  options.log_level = "off";
  Runtime runtime(argc, argv, options);
  const long rows = argc > 1 ? std::atol(argv[1]) : 131072;
  const long batch = argc > 2 ? std::atol(argv[2]) : 1024;
  const long epochs = argc > 3 ? std::atol(argv[3]) : 3;
  const int threads = argc > 4 ? std::atoi(argv[4]) : 1;
  const std::string transport = argc > 5 ? argv[5] : "mpi";
  if (transport != "mpi" && transport != "gloo") {
    std::cerr << "bench_train: the transport is mpi or gloo, not " << transport << "\n";
    return 2;
  }
  runtime.set_torch_threads(threads);

  Schema root("bench");
  root.section("training", training::Trainer::schema(), "training");
  root.component("network", surrogates::networks(), "network");
  const io::CaseFile config = io::load_case_text(
      fmt::format(
          "training: {{epochs: {}, batch_size: {}, checkpoint_interval: 1000000, restore_best: false, "
          "optimizer: {{type: adam, lr: 1.0e-3}}, loss: {{type: mse}}}}\n"
          "network: {{type: mlp, hidden: [256, 256, 256, 256], activation: gelu}}\n",
          epochs, batch),
      "bench.yaml", root);
  torch::manual_seed(1);
  const auto inputs = torch::rand({rows, 5});
  const auto targets = torch::rand({rows, 4});
  const training::TensorSet train{inputs, targets, {}};
  const training::TensorSet none{torch::empty({0, 5}), torch::empty({0, 4}), {}};
  const CaseNode net = config.root.section("network");
  std::unique_ptr<surrogates::Network> model = surrogates::networks().at("mlp").make(net, 5, 4);
  training::DataParallelOptions parallel;
  parallel.host_transport =
      transport == "mpi" ? training::HostTransport::kMpi : training::HostTransport::kProcessGroup;
  training::Trainer trainer(config.root.section("training"),
                            training::collective_data_parallel(runtime.comm(), parallel));
  const auto dir =
      std::filesystem::temp_directory_path() / fmt::format("surrox_bench_train_{}", getpid());
  const training::TrainResult r = trainer.fit(*model, train, none, dir);
  if (runtime.root()) {
    std::filesystem::remove_all(dir);
    std::cout << fmt::format(
        "{{\"code\": \"surrox\", \"ranks\": {}, \"threads\": {}, \"rows\": {}, \"batch\": {}, "
        "\"epochs\": {}, \"transport\": \"{}\", \"samples_per_second\": {:.1f}, "
        "\"final_loss\": {:.6g}}}\n",
        runtime.size(), threads, rows, batch, epochs, transport, r.samples_per_second,
        r.history.back().train_loss);
  }
  return 0;
}
