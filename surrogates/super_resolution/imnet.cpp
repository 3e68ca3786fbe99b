#include "surrogates/super_resolution/imnet.hpp"

namespace surrox::surrogates::super_resolution {

bool is_imnet_activation(const std::string& name) {
  return name == "softplus" || name == "leaky_relu" || name == "tanh";
}

ImNetImpl::ImNetImpl(long in, long out, long filters, std::string activation)
    : activation_(std::move(activation)) {
  TORCH_CHECK(is_imnet_activation(activation_), "unknown ImNet activation ", activation_);
  const long widths[] = {16 * filters, 8 * filters, 4 * filters, 2 * filters, filters};
  long previous = 0;
  for (int l = 0; l < 5; ++l) {
    const long fan_in = (l == 0 ? 0 : previous) + (l <= 4 ? in : 0);
    layers_->push_back(torch::nn::Linear(l == 0 ? in : fan_in, widths[l]));
    previous = widths[l];
  }
  layers_->push_back(torch::nn::Linear(filters, out));
  register_module("layers", layers_);
}

torch::Tensor ImNetImpl::forward(const torch::Tensor& x) {
  auto act = [&](const torch::Tensor& y) {
    if (activation_ == "softplus") return torch::nn::functional::softplus(y);
    if (activation_ == "tanh") return torch::tanh(y);
    return torch::leaky_relu(y, 0.01);
  };
  TORCH_CHECK(x.dim() == 2, "ImNet expects [rows, features], got ", x.sizes());
  // Layers 1–4 see [h, x]: W [h, x] + b = W_h h + (W_x x + b). The input's share of all four
  // is one GEMM, and no layer copies its input into a concatenation (the reference's cat).
  std::vector<torch::Tensor> input_weights, biases;
  for (int l = 1; l <= 4; ++l) {
    auto* linear = layers_[l]->as<torch::nn::Linear>();
    input_weights.push_back(linear->weight.slice(1, linear->weight.size(1) - x.size(-1)));
    biases.push_back(linear->bias);
  }
  const torch::Tensor skips =
      torch::addmm(torch::cat(biases), x, torch::cat(input_weights).t());  // [rows, Σ widths]
  torch::Tensor y = act(layers_[0]->as<torch::nn::Linear>()->forward(x));
  long offset = 0;
  for (int l = 1; l <= 4; ++l) {
    auto* linear = layers_[l]->as<torch::nn::Linear>();
    const long width = linear->weight.size(0), hidden = linear->weight.size(1) - x.size(-1);
    y = act(torch::addmm(skips.slice(-1, offset, offset + width), y,
                         linear->weight.slice(1, 0, hidden).t()));
    offset += width;
  }
  return layers_[5]->as<torch::nn::Linear>()->forward(y);
}

}  // namespace surrox::surrogates::super_resolution
