#pragma once
// The error measures of field evaluations, per output channel (dimension 1 of [rows, C]):
// relative L2 ‖p − t‖₂ / ‖t‖₂ and the absolute RMS of p − t. A channel's reference is "zero"
// in a set of rows when its norm is at most kZeroReferenceFraction of the largest channel's norm
// there (Uz of a 2D case, ~1e-15 after an export): its relative error is undefined (NaN: null
// in JSON, "undefined" in tables), never a division by ~0, and its absolute RMS error stands.
#include <torch/torch.h>

#include <vector>

namespace surrox::training {

constexpr double kZeroReferenceFraction = 1e-9;

std::vector<double> relative_l2(const torch::Tensor& prediction, const torch::Tensor& truth);
std::vector<double> absolute_rms(const torch::Tensor& prediction, const torch::Tensor& truth);

// Over the defined (finite) values; NaN when there are none (median: core/statistics.hpp).
double median_of(std::vector<double> values);
double max_of(const std::vector<double>& values);

}  // namespace surrox::training
