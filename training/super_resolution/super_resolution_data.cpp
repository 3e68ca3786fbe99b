#include "training/super_resolution/super_resolution_data.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cmath>

#include "core/error.hpp"
#include "io/hdf5_dataset.hpp"

namespace surrox::training::super_resolution {
namespace {

const char* const kSrAxisNames[3] = {"t", "z", "x"};

// The hull of nodes [first, first + nodes − 1] in high-res index units.
std::array<double, 2> sr_hull(double origin, long step, long first, long nodes) {
  return {origin + double(first * step), origin + double((first + nodes - 1) * step)};
}

}  // namespace

RbRun read_rb_run(const std::filesystem::path& path) {
  io::Hdf5DatasetReader reader(path);
  const std::string where = path.string();
  RbRun run;
  run.path = path;
  YAML::Node config;
  try {
    config = YAML::Load(reader.case_yaml());
  } catch (const YAML::Exception& e) {
    throw InputError(where + ": the stored case is not YAML: " + e.what());
  }
  const std::string solver = config["solver"] && config["solver"]["type"]
                                 ? config["solver"]["type"].as<std::string>()
                                 : std::string("(none)");
  if (solver != "rayleigh_benard")
    throw InputError(fmt::format(
        "{}: written by solver '{}'; super-resolution needs a 2D Rayleigh–Bénard dataset "
        "(solver type rayleigh_benard)",
        where, solver));
  const YAML::Node s = config["solver"];
  run.rayleigh = s["rayleigh"] ? s["rayleigh"].as<double>() : 1e6;
  run.prandtl = s["prandtl"] ? s["prandtl"].as<double>() : 1.0;
  run.seed = s["seed"] ? s["seed"].as<long>() : -1;
  const io::MeshData mesh = reader.mesh();
  if (mesh.kind != io::MeshKind::kImage)
    throw InputError(where +
                     ": the grid is stretched (solver.stretching > 0); super-resolution needs a "
                     "uniform grid (run the case with --set solver.stretching=0)");
  const auto dims = mesh.dimensions();  // corner points: cells = points − 1
  const long nx = dims[0] - 1, nz = dims[1] - 1;
  run.dx = mesh.spacing[0];
  run.dz = mesh.spacing[1];
  const auto times = reader.times();
  const long frames = static_cast<long>(times.size());
  if (frames < 2)
    throw InputError(where + ": needs 2 frames or more, has " + std::to_string(frames));
  run.frame_interval = (times.back() - times.front()) / double(frames - 1);
  for (long i = 1; i < frames; ++i)
    if (std::abs(times[i] - times[i - 1] - run.frame_interval) > 1e-6 * run.frame_interval)
      throw InputError(fmt::format("{}: frames are not equally spaced in time (t = {} then {})",
                                   where, times[i - 1], times[i]));
  std::vector<std::string> names;
  for (const auto& f : reader.fields()) names.push_back(f.name);
  run.fields = torch::empty({4, frames, nz, nx}, torch::kFloat32);
  for (int c = 0; c < 4; ++c) {
    if (std::find(names.begin(), names.end(), kChannels[c]) == names.end())
      throw InputError(fmt::format("{}: no field '{}' (super-resolution needs p, b, u, w)", where,
                                   kChannels[c]));
    for (long t = 0; t < frames; ++t) {
      const io::HostArray a = reader.read(kChannels[c], static_cast<std::size_t>(t));
      if (static_cast<long>(a.extent(0)) != nz * nx || a.extent(1) != 1)
        throw InputError(fmt::format("{}: field {} has {} values per frame, the grid {} × {} cells",
                                     where, kChannels[c], a.extent(0) * a.extent(1), nz, nx));
      run.fields[c][t].copy_(torch::from_blob(a.data(), {nz, nx}, torch::kFloat64));
    }
  }
  return run;
}

LowResGrid downsample(const RbRun& run, const Downsampling& f) {
  const long frames = run.fields.size(1), nz = run.fields.size(2), nx = run.fields.size(3);
  const std::array<long, 3> factor = {f.t, f.z, f.x};
  const std::array<long, 3> extent = {frames - 1, nz, nx};
  for (int d = 0; d < 3; ++d)
    if (factor[d] < 1 || extent[d] % factor[d] != 0)
      throw InputError(
          fmt::format("{}: the downsampling factor {} in {} does not divide the {} {} of the data",
                      run.path.string(), factor[d], kSrAxisNames[d], extent[d],
                      d == 0 ? "frame intervals" : "cells"));
  using torch::indexing::None;
  using torch::indexing::Slice;
  const torch::Tensor frames_kept = run.fields.index({Slice(), Slice(None, None, f.t)});
  LowResGrid grid;
  grid.step = factor;
  if (f.average) {
    // f × f block means: [4, T', Z/f, f, X/f, f] averaged over the block axes.
    grid.nodes =
        frames_kept.reshape({4, frames_kept.size(1), nz / f.z, f.z, nx / f.x, f.x}).mean({3, 5});
    grid.origin = {0, 0.5 * double(f.z - 1), 0.5 * double(f.x - 1)};
  } else {
    grid.nodes =
        frames_kept.index({Slice(), Slice(), Slice(None, None, f.z), Slice(None, None, f.x)});
    grid.origin = {0, 0, 0};
  }
  grid.nodes = grid.nodes.contiguous();
  return grid;
}

std::array<double, 3> crop_span(const RbRun& run, const LowResGrid& grid,
                                const std::array<long, 3>& nodes) {
  const double h[3] = {run.frame_interval, run.dz, run.dx};
  std::array<double, 3> span{};
  for (int d = 0; d < 3; ++d) span[d] = double((nodes[d] - 1) * grid.step[d]) * h[d];
  return span;
}

CropSamples sample_crops(const RbRun& run, const LowResGrid& grid, const std::array<long, 3>& nodes,
                         long count, long points, std::mt19937_64& engine) {
  const std::array<long, 3> low = {grid.nodes.size(1), grid.nodes.size(2), grid.nodes.size(3)};
  for (int d = 0; d < 3; ++d)
    if (nodes[d] < 2 || nodes[d] > low[d])
      throw InputError(fmt::format(
          "{}: a crop of {} low-res nodes in {} does not fit the {} low-res nodes of the data "
          "(2 ≤ crop ≤ nodes)",
          run.path.string(), nodes[d], kSrAxisNames[d], low[d]));
  CropSamples out;
  out.lowres = torch::empty({count, 4, nodes[0], nodes[1], nodes[2]}, torch::kFloat32);
  out.points = torch::empty({count, points, 3}, torch::kFloat32);
  out.values = torch::empty({count, points, 4}, torch::kFloat32);
  auto point_access = out.points.accessor<float, 3>();
  auto value_access = out.values.accessor<float, 3>();
  const auto field = run.fields.accessor<float, 4>();
  using torch::indexing::Slice;
  for (long n = 0; n < count; ++n) {
    std::array<long, 3> first{};
    std::array<long, 3> lo{}, hi{};
    std::array<std::array<double, 2>, 3> hull{};
    for (int d = 0; d < 3; ++d) {
      first[d] = std::uniform_int_distribution<long>(0, low[d] - nodes[d])(engine);
      hull[d] = sr_hull(grid.origin[d], grid.step[d], first[d], nodes[d]);
      lo[d] = static_cast<long>(std::ceil(hull[d][0]));
      hi[d] = static_cast<long>(std::floor(hull[d][1]));
    }
    out.lowres[n] = grid.nodes.index({Slice(), Slice(first[0], first[0] + nodes[0]),
                                      Slice(first[1], first[1] + nodes[1]),
                                      Slice(first[2], first[2] + nodes[2])});
    for (long p = 0; p < points; ++p) {
      long index[3];
      for (int d = 0; d < 3; ++d) {
        index[d] = std::uniform_int_distribution<long>(lo[d], hi[d])(engine);
        point_access[n][p][d] =
            static_cast<float>((double(index[d]) - hull[d][0]) / (hull[d][1] - hull[d][0]));
      }
      for (int c = 0; c < 4; ++c) value_access[n][p][c] = field[c][index[0]][index[1]][index[2]];
    }
  }
  return out;
}

TileAxis tile_axis(long low_nodes, long crop_nodes, double origin, long step) {
  TileAxis axis;
  for (long s = 0;; s += crop_nodes - 1) {
    const long start = std::min(s, low_nodes - crop_nodes);
    axis.start.push_back(start);
    if (start + crop_nodes >= low_nodes) break;
  }
  long next = static_cast<long>(std::ceil(origin));
  for (std::size_t i = 0; i < axis.start.size(); ++i) {
    const auto hull = sr_hull(origin, step, axis.start[i], crop_nodes);
    const long end = static_cast<long>(std::floor(hull[1])) + 1;
    axis.own.push_back({next, end});
    next = end;
  }
  return axis;
}

std::pair<torch::Tensor, torch::Tensor> tile_points(const std::array<TileAxis, 3>& axes,
                                                    const std::array<long, 3>& tile,
                                                    const LowResGrid& grid,
                                                    const std::array<long, 3>& nodes) {
  std::vector<torch::Tensor> normalised, indices;
  for (int d = 0; d < 3; ++d) {
    const auto own = axes[d].own[tile[d]];
    const auto hull = sr_hull(grid.origin[d], grid.step[d], axes[d].start[tile[d]], nodes[d]);
    const torch::Tensor i = torch::arange(own[0], own[1], torch::kLong);
    indices.push_back(i);
    normalised.push_back(
        ((i.to(torch::kFloat64) - hull[0]) / (hull[1] - hull[0])).to(torch::kFloat32));
  }
  auto mesh = torch::meshgrid(normalised, "ij");
  auto index_mesh = torch::meshgrid(indices, "ij");
  return {
      torch::stack({mesh[0].flatten(), mesh[1].flatten(), mesh[2].flatten()}, 1),
      torch::stack({index_mesh[0].flatten(), index_mesh[1].flatten(), index_mesh[2].flatten()}, 1)};
}

std::pair<torch::Tensor, torch::Tensor> channel_statistics(const std::vector<RbRun>& runs) {
  TORCH_CHECK(!runs.empty(), "channel statistics of no runs");
  torch::Tensor sum = torch::zeros({4}, torch::kFloat64),
                square = torch::zeros({4}, torch::kFloat64);
  double count = 0;
  for (const auto& run : runs) {
    const torch::Tensor f = run.fields.reshape({4, -1}).to(torch::kFloat64);
    sum += f.sum(1);
    square += f.square().sum(1);
    count += double(f.size(1));
  }
  const torch::Tensor mean = sum / count;
  const torch::Tensor std = (square / count - mean.square()).clamp_min(0).sqrt().clamp_min(1e-12);
  return {mean, std};
}

}  // namespace surrox::training::super_resolution
