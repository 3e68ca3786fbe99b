// `surrox evaluate MODEL DATA` for super-resolution models: the model and trilinear
// interpolation of the same low-res input against the high-res truth of a held-out run.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cmath>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "surrogates/super_resolution/local_implicit_grid.hpp"
#include "training/super_resolution/super_resolution_model.hpp"
#include "training/super_resolution/super_resolution_training.hpp"

namespace surrox::training::super_resolution {
namespace {

namespace srm = surrogates::super_resolution;

// Sums for NMAE, relative L2 and R² of one field against the truth, per channel.
struct SrErrorSums {
  std::array<double, 4> abs_error{}, square_error{};
  void add(const torch::Tensor& prediction, const torch::Tensor& truth) {  // [P, 4]
    const torch::Tensor e = (prediction - truth).to(torch::kFloat64);
    for (int c = 0; c < 4; ++c) {
      abs_error[c] += e.select(1, c).abs().sum().item<double>();
      square_error[c] += e.select(1, c).square().sum().item<double>();
    }
  }
};

struct SrTruthSums {
  std::array<double, 4> abs{}, sum{}, square{};
  double count = 0;
  void add(const torch::Tensor& truth) {
    const torch::Tensor t = truth.to(torch::kFloat64);
    for (int c = 0; c < 4; ++c) {
      abs[c] += t.select(1, c).abs().sum().item<double>();
      sum[c] += t.select(1, c).sum().item<double>();
      square[c] += t.select(1, c).square().sum().item<double>();
    }
    count += double(t.size(0));
  }
};

nlohmann::json sr_metrics(const SrErrorSums& e, const SrTruthSums& t) {
  nlohmann::json j;
  double nmae_mean = 0;
  for (int c = 0; c < 4; ++c) {
    const double variance = t.square[c] - t.sum[c] * t.sum[c] / t.count;
    const double nmae = e.abs_error[c] / t.abs[c];
    nmae_mean += nmae / 4;
    j[kChannels[c]] = {{"nmae", nmae},
                       {"relative_l2", std::sqrt(e.square_error[c] / t.square[c])},
                       {"r2", 1 - e.square_error[c] / variance}};
  }
  j["nmae_mean"] = nmae_mean;
  return j;
}

nlohmann::json sr_residual_json(const std::array<double, 4>& square, double count) {
  const char* names[4] = {"continuity", "momentum_x", "momentum_z", "buoyancy"};
  nlohmann::json j;
  double total = 0;
  for (int e = 0; e < 4; ++e) {
    j[names[e]] = std::sqrt(square[e] / count);
    total += square[e];
  }
  j["all"] = std::sqrt(total / (4 * count));
  return j;
}

// What evaluating the tiles adds up: the errors of both fields, the truth's sums, per frame
// the summed |model − truth|, |trilinear − truth| and |truth|, the PDE residuals' squares and
// the snapshot's CSV rows.
struct SrEvaluationSums {
  SrErrorSums model_error, trilinear_error;
  SrTruthSums truth_sums;
  std::vector<std::array<double, 3>> per_frame;
  std::array<double, 4> residual_model{}, residual_trilinear{};
  double residual_count = 0;
  std::string snapshot;
};

// The tiles along t, z, x; InputError when the run has fewer low-res nodes than the crop.
std::array<TileAxis, 3> sr_evaluation_axes(const LowResGrid& grid, const std::array<long, 3>& nodes,
                                           const std::filesystem::path& data_path) {
  std::array<TileAxis, 3> axes;
  for (int d = 0; d < 3; ++d) {
    if (grid.nodes.size(d + 1) < nodes[d])
      throw InputError(
          fmt::format("{}: {} low-res nodes along {}, fewer than the model's crop of {}",
                      data_path.string(), grid.nodes.size(d + 1),
                      d == 0   ? "t"
                      : d == 1 ? "z"
                               : "x",
                      nodes[d]));
    axes[d] = tile_axis(grid.nodes.size(d + 1), nodes[d], grid.origin[d], grid.step[d]);
  }
  return axes;
}

// One tile: its low-res crop (normalised and physical), its query points, their high-res
// indices and the truth there [P, 4].
struct SrEvaluationTile {
  torch::Tensor crop_n, crop_p, points, index, truth;
};

// The model's prediction and trilinear interpolation at the tile's points (no gradients).
void sr_tile_predictions(SuperResolutionModel& m, const SrEvaluationTile& t,
                         torch::Tensor& prediction, torch::Tensor& interpolated) {
  torch::NoGradGuard no_grad;
  const torch::Tensor latent = m.network->encode(t.crop_n);
  std::vector<torch::Tensor> parts;
  for (long b = 0; b < t.points.size(0); b += 16384)
    parts.push_back(m.network->decode(latent, t.points.slice(0, b, b + 16384).unsqueeze(0))[0]);
  prediction = m.denormalise(torch::cat(parts));
  interpolated = srm::trilinear(t.crop_p, t.points.unsqueeze(0))[0];
}

// The tile's absolute errors and truth, summed per frame.
void add_sr_frame_errors(const SrEvaluationTile& t, const torch::Tensor& frame,
                         const torch::Tensor& prediction, const torch::Tensor& interpolated,
                         std::vector<std::array<double, 3>>& per_frame) {
  const torch::Tensor model_abs = (prediction - t.truth).abs().sum(1);
  const torch::Tensor trilinear_abs = (interpolated - t.truth).abs().sum(1);
  const torch::Tensor truth_abs = t.truth.abs().sum(1);
  for (long f = t.index[0][0].item<long>(); f <= t.index[-1][0].item<long>(); ++f) {
    const torch::Tensor in_frame = frame == f;
    per_frame[f][0] += model_abs.masked_select(in_frame).sum().item<double>();
    per_frame[f][1] += trilinear_abs.masked_select(in_frame).sum().item<double>();
    per_frame[f][2] += truth_abs.masked_select(in_frame).sum().item<double>();
  }
}

// The PDE residual of both fields at evenly spread points of the tile.
void add_sr_tile_residuals(SuperResolutionModel& m, const SrEvaluationTile& t,
                           const srm::BoussinesqScales& scales, SrEvaluationSums& sums) {
  const long stride = std::max(1L, t.points.size(0) / m.residual_points);
  const torch::Tensor rp =
      t.points.slice(0, 0, t.points.size(0), stride).unsqueeze(0).requires_grad_(true);
  const torch::Tensor latent = m.network->encode(t.crop_n).detach();
  const torch::Tensor r_model =
      srm::boussinesq_residual(m.network->decode(latent, rp), rp, scales, false);
  const torch::Tensor r_tri =
      srm::boussinesq_residual(srm::trilinear(t.crop_n, rp), rp, scales, false);
  for (int e = 0; e < 4; ++e) {
    sums.residual_model[e] += r_model.select(-1, e).square().sum().item<double>();
    sums.residual_trilinear[e] += r_tri.select(-1, e).square().sum().item<double>();
  }
  sums.residual_count += double(rp.size(1));
}

// The snapshot's rows: the tile's points in the snapshot frame, at their nearest low-res node.
void add_sr_snapshot_rows(const SrEvaluationTile& t, const torch::Tensor& frame,
                          const std::array<long, 3>& nodes, long snapshot_frame,
                          const torch::Tensor& prediction, const torch::Tensor& interpolated,
                          std::string& snapshot) {
  const torch::Tensor at = (frame == snapshot_frame).nonzero().flatten();
  if (at.numel() > 0) {
    const torch::Tensor scaled =
        t.points.index_select(0, at) *
        torch::tensor({float(nodes[0] - 1), float(nodes[1] - 1), float(nodes[2] - 1)});
    const torch::Tensor nearest = scaled.round().to(torch::kLong);
    auto n = nearest.accessor<long, 2>();
    auto idx = t.index.index_select(0, at);
    auto ia = idx.accessor<long, 2>();
    auto tr = t.truth.index_select(0, at).contiguous();
    auto pr = prediction.index_select(0, at).contiguous();
    auto ip = interpolated.index_select(0, at).contiguous();
    auto ta = tr.accessor<float, 2>();
    auto pa = pr.accessor<float, 2>();
    auto tia = ip.accessor<float, 2>();
    const torch::Tensor crop_values = t.crop_p[0].contiguous();
    auto low = crop_values.accessor<float, 4>();
    for (long q = 0; q < at.numel(); ++q)
      snapshot +=
          fmt::format("{},{},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g}\n", ia[q][1],
                      ia[q][2], ta[q][1], low[1][n[q][0]][n[q][1]][n[q][2]], tia[q][1], pa[q][1],
                      ta[q][3], low[3][n[q][0]][n[q][1]][n[q][2]], tia[q][3], pa[q][3]);
  }
}

// Evaluates tile (t, z, x) of the run: its errors, residuals and snapshot rows go to sums.
void evaluate_sr_tile(SuperResolutionModel& m, const RbRun& run, const LowResGrid& grid,
                      const std::array<TileAxis, 3>& axes, const std::array<long, 3>& nodes,
                      const torch::Tensor& lowres_normalised, const srm::BoussinesqScales& scales,
                      long snapshot_frame, const std::array<long, 3>& tile,
                      SrEvaluationSums& sums) {
  using torch::indexing::Slice;
  const std::array<long, 3> start = {axes[0].start[tile[0]], axes[1].start[tile[1]],
                                     axes[2].start[tile[2]]};
  const auto slices = std::vector<torch::indexing::TensorIndex>{
      Slice(), Slice(start[0], start[0] + nodes[0]), Slice(start[1], start[1] + nodes[1]),
      Slice(start[2], start[2] + nodes[2])};
  SrEvaluationTile t;
  t.crop_n = lowres_normalised.index(slices).unsqueeze(0);
  t.crop_p = grid.nodes.index(slices).unsqueeze(0);
  std::tie(t.points, t.index) = tile_points(axes, tile, grid, nodes);
  t.truth =
      run.fields.index({Slice(), t.index.select(1, 0), t.index.select(1, 1), t.index.select(1, 2)})
          .t();  // [P, 4]
  torch::Tensor prediction, interpolated;
  sr_tile_predictions(m, t, prediction, interpolated);
  sums.model_error.add(prediction, t.truth);
  sums.trilinear_error.add(interpolated, t.truth);
  sums.truth_sums.add(t.truth);
  const torch::Tensor frame = t.index.select(1, 0);
  add_sr_frame_errors(t, frame, prediction, interpolated, sums.per_frame);
  add_sr_tile_residuals(m, t, scales, sums);
  add_sr_snapshot_rows(t, frame, nodes, snapshot_frame, prediction, interpolated, sums.snapshot);
}

// error_vs_time.csv (NMAE of both fields per frame) and snapshot.csv in output_dir.
void write_sr_evaluation_files(const std::filesystem::path& output_dir, const RbRun& run,
                               const SrEvaluationSums& sums, long frames, long snapshot_frame,
                               nlohmann::json& results) {
  const auto& per_frame = sums.per_frame;
  std::filesystem::create_directories(output_dir);
  std::string csv = "frame,time,nmae_model,nmae_trilinear\n";
  for (long f = 0; f < frames; ++f)
    if (per_frame[f][2] > 0)
      csv += fmt::format("{},{:.6g},{:.6g},{:.6g}\n", f, double(f) * run.frame_interval,
                         per_frame[f][0] / per_frame[f][2], per_frame[f][1] / per_frame[f][2]);
  write_text_atomically(output_dir / "error_vs_time.csv", csv);
  write_text_atomically(output_dir / "snapshot.csv", sums.snapshot);
  results["snapshot_frame"] = snapshot_frame;
  results["outputs"] = {{"error_vs_time", (output_dir / "error_vs_time.csv").string()},
                        {"snapshot", (output_dir / "snapshot.csv").string()}};
}

}  // namespace

void evaluate_super_resolution(const std::filesystem::path& model_path,
                               const std::filesystem::path& data_path, Runtime& runtime,
                               const std::filesystem::path& output_dir, nlohmann::json& results) {
  SuperResolutionModel m = SuperResolutionModel::load(model_path);
  const RbRun run = read_rb_run(data_path);
  m.check_compatible(run);
  const LowResGrid grid = downsample(run, m.downsampling);
  const auto nodes = m.crop();
  const std::array<TileAxis, 3> axes = sr_evaluation_axes(grid, nodes, data_path);
  const long time_tiles = static_cast<long>(axes[0].start.size());
  const long first_time_tile =
      m.evaluation_time_tiles > 0 ? std::max(0L, time_tiles - m.evaluation_time_tiles) : 0;
  const srm::BoussinesqScales scales = m.scales(run, grid);
  const torch::Tensor lowres_normalised = m.normalise(grid.nodes.unsqueeze(0))[0];
  const long frames = run.fields.size(1);

  SrEvaluationSums sums;
  sums.per_frame.assign(static_cast<std::size_t>(frames), {0, 0, 0});
  // Snapshot frame: between two low-res frames, in the last time tile (temporal and spatial
  // super-resolution at once).
  const auto last_own = axes[0].own.back();
  const long snapshot_frame =
      std::min(frames - 1, last_own[0] + std::max(1L, m.downsampling.t / 2));
  sums.snapshot =
      "z_index,x_index,truth_b,lowres_b,trilinear_b,model_b,truth_w,lowres_w,"
      "trilinear_w,model_w\n";
  for (long it = first_time_tile; it < time_tiles; ++it)
    for (std::size_t iz = 0; iz < axes[1].start.size(); ++iz)
      for (std::size_t ix = 0; ix < axes[2].start.size(); ++ix)
        evaluate_sr_tile(m, run, grid, axes, nodes, lowres_normalised, scales, snapshot_frame,
                         {it, long(iz), long(ix)}, sums);
  const nlohmann::json model_metrics = sr_metrics(sums.model_error, sums.truth_sums);
  const nlohmann::json trilinear_metrics = sr_metrics(sums.trilinear_error, sums.truth_sums);
  results["family"] = kFamilyName;
  results["data"] = data_path.string();
  results["data_rayleigh"] = run.rayleigh;
  results["data_seed"] = run.seed;
  results["model_rayleigh"] = m.rayleigh;
  results["evaluated_points"] = sums.truth_sums.count;
  results["evaluated_frames"] = {axes[0].own[first_time_tile][0], axes[0].own.back()[1] - 1};
  results["model"] = model_metrics;
  results["trilinear"] = trilinear_metrics;
  results["nmae_ratio"] =
      model_metrics["nmae_mean"].get<double>() / trilinear_metrics["nmae_mean"].get<double>();
  results["pde_residual_rms"] = {
      {"model", sr_residual_json(sums.residual_model, sums.residual_count)},
      {"trilinear", sr_residual_json(sums.residual_trilinear, sums.residual_count)}};
  spdlog::info("super_resolution: NMAE (mean of p, b, u, w) model {:.4f}, trilinear {:.4f}",
               model_metrics["nmae_mean"].get<double>(),
               trilinear_metrics["nmae_mean"].get<double>());
  if (runtime.root())
    write_sr_evaluation_files(output_dir, run, sums, frames, snapshot_frame, results);
}

}  // namespace surrox::training::super_resolution
