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
  torch::Tensor y = x;
  for (int l = 0; l < 4; ++l)
    y = torch::cat({act(layers_[l]->as<torch::nn::Linear>()->forward(y)), x}, -1);
  y = act(layers_[4]->as<torch::nn::Linear>()->forward(y));
  return layers_[5]->as<torch::nn::Linear>()->forward(y);
}

}  // namespace surrox::surrogates::super_resolution
