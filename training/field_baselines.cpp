#include "training/field_baselines.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace surrox::training {
namespace {

// Channel c of `rows` is constant: its spread is round-off of its magnitude.
bool constant_channel(const torch::Tensor& rows, long c) {
  const torch::Tensor v = rows.select(1, c);
  const double lo = v.min().item<double>(), hi = v.max().item<double>();
  return hi - lo <= 1e-12 * std::max({1.0, std::fabs(lo), std::fabs(hi)});
}

}  // namespace

FieldBaselines field_baselines(const FieldBaselineInputs& in,
                               const std::vector<std::string>& input_names) {
  FieldBaselines b;
  const std::size_t cases = in.inputs.size();
  std::vector<std::size_t> pool;
  for (std::size_t k = 0; k < cases; ++k)
    if (in.training[k]) pool.push_back(k);
  if (pool.size() < 2) {
    b.skipped = fmt::format(
        "the evaluated data holds {} of the model's training cases (2 or more are needed); "
        "evaluate on data that includes them, e.g. the dataset the model was trained on",
        pool.size());
    return b;
  }
  const long channels = in.inputs.front().size(1);
  // Parameters: constant within every training case, varying between them.
  std::vector<long> coordinates;
  for (long c = 0; c < channels; ++c) {
    bool constant = true;
    for (std::size_t k : pool) constant = constant && constant_channel(in.inputs[k], c);
    if (!constant) {
      coordinates.push_back(c);
      continue;
    }
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t k : pool) {
      const double v = in.inputs[k][0][c].item<double>();
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    if (hi - lo > 1e-12 * std::max({1.0, std::fabs(lo), std::fabs(hi)})) {
      b.parameter_channels.push_back(c);
      b.parameters.push_back(input_names[static_cast<std::size_t>(c)]);
    }
  }
  if (b.parameter_channels.empty()) {
    b.skipped = "no input channel is a parameter (constant within each case, varying between "
                "the training cases): the cases cannot be placed in parameter space";
    return b;
  }
  // One mesh: equal rows and coordinate channels in every case.
  const torch::Tensor mesh = in.inputs[pool.front()].index_select(
      1, torch::tensor(coordinates, torch::kLong));
  const double mesh_scale = std::max(1.0, mesh.abs().max().item<double>());
  b.combined = "one mesh";
  for (std::size_t k = 0; k < cases; ++k) {
    if (in.inputs[k].size(0) != mesh.size(0)) {
      b.skipped = "the cases' meshes differ in size, and the baselines combine fields point by "
                  "point (one mesh, or structured grids of one topology)";
      return b;
    }
    const bool same_points =
        (in.inputs[k].index_select(1, torch::tensor(coordinates, torch::kLong)) - mesh)
            .abs()
            .max()
            .item<double>() <= 1e-9 * mesh_scale;
    if (same_points) continue;
    if (!in.structured) {
      b.skipped = "the cases do not share one mesh (their points differ), and the baselines "
                  "combine fields point by point";
      return b;
    }
    b.combined = "grid index";
  }
  // Parameters scaled by their spread over the training cases.
  const long np = static_cast<long>(b.parameter_channels.size());
  auto parameters_of = [&](std::size_t k) {
    std::vector<double> p;
    for (long c : b.parameter_channels) p.push_back(in.inputs[k][0][c].item<double>());
    return p;
  };
  std::vector<double> mean(static_cast<std::size_t>(np), 0.0), spread(mean.size(), 0.0);
  for (std::size_t k : pool) {
    const auto p = parameters_of(k);
    for (long i = 0; i < np; ++i) mean[i] += p[i] / static_cast<double>(pool.size());
  }
  for (std::size_t k : pool) {
    const auto p = parameters_of(k);
    for (long i = 0; i < np; ++i)
      spread[i] += (p[i] - mean[i]) * (p[i] - mean[i]) / static_cast<double>(pool.size());
  }
  for (auto& s : spread) s = std::sqrt(s);
  for (std::size_t k = 0; k < cases; ++k) {
    const auto p = parameters_of(k);
    std::vector<std::pair<double, std::size_t>> distances;
    for (std::size_t j : pool) {
      if (j == k) continue;  // a training case is not its own neighbour
      const auto q = parameters_of(j);
      double d2 = 0;
      for (long i = 0; i < np; ++i) d2 += std::pow((p[i] - q[i]) / spread[i], 2);
      distances.emplace_back(std::sqrt(d2), j);
    }
    std::sort(distances.begin(), distances.end());
    b.nearest.push_back(in.outputs[distances.front().second]);
    const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(in.neighbours),
                                                distances.size());
    if (distances.front().first == 0) {  // the same parameters: that case's fields
      b.interpolated.push_back(in.outputs[distances.front().second]);
      continue;
    }
    torch::Tensor sum = torch::zeros_like(in.outputs[k]);
    double weights = 0;
    for (std::size_t m = 0; m < n; ++m) {
      const double w = 1.0 / (distances[m].first * distances[m].first);
      sum = sum + w * in.outputs[distances[m].second];
      weights += w;
    }
    b.interpolated.push_back(sum / weights);
  }
  return b;
}

}  // namespace surrox::training
