#pragma once
// ImNet, the decoder of MeshfreeFlowNet (maxjiang93/space_time_pde, src/implicit_net.py): an MLP
// of widths 16·nf, 8·nf, 4·nf, 2·nf, nf whose first four hidden layers see their input
// concatenated again (dense skips), then a linear output layer. [rows, 3 + latent] → [rows, out].
//
// The activation is smooth (softplus) by default: the PDE loss takes second derivatives of the
// output with respect to the coordinates, which vanish almost everywhere through a leaky ReLU
// (the reference's default).
#include <torch/torch.h>

#include <string>

namespace surrox::surrogates::super_resolution {

class ImNetImpl : public torch::nn::Module {
 public:
  ImNetImpl(long in, long out, long filters, std::string activation);
  torch::Tensor forward(const torch::Tensor& x);

 private:
  torch::nn::ModuleList layers_;
  std::string activation_;
};
TORCH_MODULE(ImNet);

// softplus, leaky_relu, tanh.
bool is_imnet_activation(const std::string& name);

}  // namespace surrox::surrogates::super_resolution
