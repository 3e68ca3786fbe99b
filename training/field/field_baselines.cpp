#include "training/field/field_baselines.hpp"

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

// Parameters: channels constant within every training case and varying between them; the
// others are the mesh's (coordinates and other per-point inputs), returned.
std::vector<long> split_parameters(const FieldBaselineInputs& in,
                                   const std::vector<std::size_t>& pool,
                                   const std::vector<std::string>& input_names, FieldBaselines& b) {
  std::vector<long> coordinates;
  for (long c = 0; c < in.inputs.front().size(1); ++c) {
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
  return coordinates;
}

// How two cases' fields combine: "one mesh" (point by point), "grid index" (structured grids of
// one topology whose points differ) or "nearest point" (other meshes).
std::string mesh_combination(const FieldBaselineInputs& in, const torch::Tensor& columns,
                             std::size_t first) {
  const torch::Tensor mesh = in.inputs[first].index_select(1, columns);
  const double mesh_scale = std::max(1.0, mesh.abs().max().item<double>());
  std::string combined = "one mesh";
  for (const auto& inputs : in.inputs) {
    if (inputs.size(0) != mesh.size(0)) return "nearest point";
    const double moved = (inputs.index_select(1, columns) - mesh).abs().max().item<double>();
    if (moved <= 1e-9 * mesh_scale) continue;
    if (!in.structured) return "nearest point";
    combined = "grid index";
  }
  return combined;
}

// Case `from`'s fields at case `to`'s rows: the values of `from`'s row nearest in the mesh
// channels, each scaled by `scale` (a nearest-point transfer, chunked distance matrices).
torch::Tensor nearest_point_fields(const FieldBaselineInputs& in, const torch::Tensor& columns,
                                   const torch::Tensor& scale, std::size_t from, std::size_t to) {
  const torch::Tensor source = in.inputs[from].index_select(1, columns) / scale;
  const torch::Tensor target = in.inputs[to].index_select(1, columns) / scale;
  std::vector<torch::Tensor> nearest;
  const long chunk = 2048;
  for (long r = 0; r < target.size(0); r += chunk)
    nearest.push_back(
        torch::cdist(target.slice(0, r, std::min(target.size(0), r + chunk)), source).argmin(1));
  return in.outputs[from].index_select(0, torch::cat(nearest));
}

// Each case's distances to the training cases (but itself) in parameters scaled by their spread
// over the training cases, nearest first.
std::vector<std::vector<std::pair<double, std::size_t>>> parameter_distances(
    const FieldBaselineInputs& in, const std::vector<std::size_t>& pool,
    const std::vector<long>& parameters) {
  // Each case's parameters, read once.
  std::vector<std::vector<double>> values;
  for (const auto& inputs : in.inputs) {
    std::vector<double> p;
    for (long c : parameters) p.push_back(inputs[0][c].item<double>());
    values.push_back(std::move(p));
  }
  const std::size_t np = parameters.size();
  std::vector<double> mean(np, 0.0), spread(np, 0.0);
  for (std::size_t k : pool)
    for (std::size_t i = 0; i < np; ++i) mean[i] += values[k][i] / static_cast<double>(pool.size());
  for (std::size_t k : pool)
    for (std::size_t i = 0; i < np; ++i)
      spread[i] +=
          (values[k][i] - mean[i]) * (values[k][i] - mean[i]) / static_cast<double>(pool.size());
  for (auto& s : spread) s = std::sqrt(s);
  std::vector<std::vector<std::pair<double, std::size_t>>> all;
  for (std::size_t k = 0; k < in.inputs.size(); ++k) {
    std::vector<std::pair<double, std::size_t>> distances;
    for (std::size_t j : pool) {
      if (j == k) continue;  // a training case is not its own neighbour
      double d2 = 0;
      for (std::size_t i = 0; i < np; ++i)
        d2 += std::pow((values[k][i] - values[j][i]) / spread[i], 2);
      distances.emplace_back(std::sqrt(d2), j);
    }
    std::sort(distances.begin(), distances.end());
    all.push_back(std::move(distances));
  }
  return all;
}

}  // namespace

FieldBaselines field_baselines(const FieldBaselineInputs& in,
                               const std::vector<std::string>& input_names) {
  FieldBaselines b;
  std::vector<std::size_t> pool;
  for (std::size_t k = 0; k < in.inputs.size(); ++k)
    if (in.training[k]) pool.push_back(k);
  if (pool.size() < 2) {
    b.skipped = fmt::format(
        "the evaluated data holds {} of the model's training cases (2 or more are needed); "
        "evaluate on data that includes them, e.g. the dataset the model was trained on",
        pool.size());
    return b;
  }
  const std::vector<long> coordinates = split_parameters(in, pool, input_names, b);
  if (b.parameter_channels.empty()) {
    b.skipped =
        "no input channel is a parameter (constant within each case, varying between "
        "the training cases): the cases cannot be placed in parameter space";
    return b;
  }
  const torch::Tensor columns = torch::tensor(coordinates, torch::kLong);
  b.combined = mesh_combination(in, columns, pool.front());
  torch::Tensor scale;  // of the mesh channels over the training cases' rows
  if (b.combined == "nearest point") {
    std::vector<torch::Tensor> rows;
    for (std::size_t k : pool) rows.push_back(in.inputs[k].index_select(1, columns));
    scale = torch::cat(rows).std(0, /*unbiased=*/false).clamp_min(1e-300);
  }
  auto fields_at = [&](std::size_t from, std::size_t to) {
    return b.combined == "nearest point" ? nearest_point_fields(in, columns, scale, from, to)
                                         : in.outputs[from];
  };
  const auto distances = parameter_distances(in, pool, b.parameter_channels);
  for (std::size_t k = 0; k < in.inputs.size(); ++k) {
    const auto& nearest = distances[k];
    b.nearest.push_back(fields_at(nearest.front().second, k));
    if (nearest.front().first == 0) {  // the same parameters: that case's fields
      b.interpolated.push_back(b.nearest.back());
      continue;
    }
    const std::size_t n =
        std::min<std::size_t>(static_cast<std::size_t>(in.neighbours), nearest.size());
    torch::Tensor sum = torch::zeros_like(in.outputs[k]);
    double weights = 0;
    for (std::size_t m = 0; m < n; ++m) {
      const double w = 1.0 / (nearest[m].first * nearest[m].first);
      sum = sum + w * (m == 0 ? b.nearest.back() : fields_at(nearest[m].second, k));
      weights += w;
    }
    b.interpolated.push_back(sum / weights);
  }
  return b;
}

}  // namespace surrox::training
