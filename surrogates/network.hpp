#pragma once
// What the trainer trains and the couplers run: a torch module with one tensor in, one out.
// Built-in architectures (per-point MLP, grid CNN) and TorchScript models implement it.
#include <torch/torch.h>

namespace surrox::surrogates {

class Network : public torch::nn::Module {
 public:
  // input [rows, ...] (normalised) → output [rows, ...] (normalised).
  virtual torch::Tensor forward(const torch::Tensor& input) = 0;
};

}  // namespace surrox::surrogates
