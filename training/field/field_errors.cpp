#include "training/field/field_errors.hpp"

#include <algorithm>
#include <cmath>

#include "core/statistics.hpp"

namespace surrox::training {

std::vector<double> relative_l2(const torch::Tensor& prediction, const torch::Tensor& truth) {
  std::vector<double> norms, errors;
  double largest = 0;
  for (long c = 0; c < truth.size(1); ++c) {
    norms.push_back(truth.select(1, c).norm().item<double>());
    largest = std::max(largest, norms.back());
  }
  for (long c = 0; c < truth.size(1); ++c) {
    const double error = (prediction.select(1, c) - truth.select(1, c)).norm().item<double>();
    const double norm = norms[static_cast<std::size_t>(c)];
    errors.push_back(norm > 0 && norm > kZeroReferenceFraction * largest ? error / norm : NAN);
  }
  return errors;
}

std::vector<double> absolute_rms(const torch::Tensor& prediction, const torch::Tensor& truth) {
  std::vector<double> errors;
  for (long c = 0; c < truth.size(1); ++c)
    errors.push_back(
        (prediction.select(1, c) - truth.select(1, c)).square().mean().sqrt().item<double>());
  return errors;
}

double median_of(std::vector<double> values) { return median(std::move(values)); }

double max_of(const std::vector<double>& values) {
  double m = NAN;
  for (double x : values)
    if (std::isfinite(x) && !(x <= m)) m = x;
  return m;
}

}  // namespace surrox::training
