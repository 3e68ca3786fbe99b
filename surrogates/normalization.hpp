#pragma once
// Per-channel affine normalisation, (x − mean) / scale, with the channel names: computed by
// the training data on the training cases, saved with every model, applied by every surrogate.
#include <torch/torch.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace surrox::surrogates {

struct Normalization {
  std::vector<std::string> names;
  std::vector<double> mean, scale;

  // x: [rows, C] (points) or [rows, C, ...] (grid); channel axis 1.
  torch::Tensor apply(const torch::Tensor& x) const;
  torch::Tensor invert(const torch::Tensor& x) const;
  nlohmann::json to_json() const;
  static Normalization from_json(const nlohmann::json& j);  // InputError when inconsistent
};

}  // namespace surrox::surrogates
