#pragma once
// A 64-bit FNV-1a fingerprint of tensors' bytes (contiguous, in order), for golden files that pin
// whole sets of weights bit for bit (tests/support/golden_file.hpp).
#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace surrox::testing {

inline std::uint64_t tensor_fingerprint(const std::vector<torch::Tensor>& tensors) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const auto& t : tensors) {
    const torch::Tensor c = t.detach().contiguous().cpu();
    const auto* bytes = static_cast<const unsigned char*>(c.data_ptr());
    const auto n = static_cast<std::size_t>(c.numel()) * c.element_size();
    for (std::size_t i = 0; i < n; ++i) hash = (hash ^ bytes[i]) * 0x100000001b3ull;
  }
  return hash;
}

// Σ x² over all tensors: the norm beside a fingerprint, which carries a tolerance.
inline double tensor_square_sum(const std::vector<torch::Tensor>& tensors) {
  double sum = 0;
  for (const auto& t : tensors) sum += t.detach().to(torch::kFloat64).square().sum().item<double>();
  return sum;
}

}  // namespace surrox::testing
