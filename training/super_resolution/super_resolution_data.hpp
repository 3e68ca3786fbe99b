#pragma once
// Training data for space-time super-resolution (MeshfreeFlowNet) from Rayleigh–Bénard runs:
// one run's fields.h5 (the 2D solver's /fields/{p,b,u,w}, [T, 1, nz, nx] cell data on a uniform
// grid, docs/validation/rayleigh_benard.md "Outputs") as a high-resolution space-time grid, its
// low-resolution version (every f_t-th frame; in space every f-th cell or the mean of each
// f × f block), random space-time crops with query points, and the tiles that cover a whole run
// for evaluation. Axes are always (t, z, x); channels (p, b, u, w); values physical unless said.
#include <torch/torch.h>

#include <array>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace surrox::training::super_resolution {

inline constexpr std::array<const char*, 4> kChannels = {"p", "b", "u", "w"};

struct RbRun {
  std::filesystem::path path;
  torch::Tensor fields;  // [4, T, Z, X] float32, cell centres, frames equally spaced
  double frame_interval = 0, dz = 0, dx = 0, rayleigh = 0, prandtl = 0;
  long seed = -1;  // solver.seed of the case, −1 when absent
};

// Reads a 2D Rayleigh–Bénard dataset. InputError (naming the file) for another solver's data,
// a stretched grid, missing channels, fewer than 2 frames or unequal frame spacing.
RbRun read_rb_run(const std::filesystem::path& path);

struct Downsampling {
  long t = 4, z = 8, x = 8;  // factors (the paper's 4 in time, 8 in space)
  bool average = false;      // space: f × f block means instead of every f-th cell
};

// The low-resolution grid: node n of axis d sits at high-resolution index origin[d] + n·step[d]
// (fractional for block means: the block's centre).
struct LowResGrid {
  torch::Tensor nodes;  // [4, Nt, Nz, Nx]
  std::array<double, 3> origin{0, 0, 0};
  std::array<long, 3> step{1, 1, 1};
};

// InputError when a factor does not divide the grid: T − 1 frame intervals, Z and X cells.
LowResGrid downsample(const RbRun& run, const Downsampling& factors);

// A crop is `nodes` low-res nodes along each axis; its high-res hull spans from the first node
// to the last. Physical extent of a crop along t, z, x.
std::array<double, 3> crop_span(const RbRun& run, const LowResGrid& grid,
                                const std::array<long, 3>& nodes);

struct CropSamples {
  torch::Tensor lowres;  // [N, 4, nt, nz, nx] the crop's low-res nodes
  torch::Tensor points;  // [N, P, 3] query points (t, z, x) in [0, 1]³ over the crop's hull
  torch::Tensor values;  // [N, P, 4] the high-res values there (grid points of the hull)
};

// `count` crops at uniformly random low-res positions, each with `points` high-res grid points
// of its hull drawn uniformly (with replacement). Deterministic for a given engine state.
CropSamples sample_crops(const RbRun& run, const LowResGrid& grid, const std::array<long, 3>& nodes,
                         long count, long points, std::mt19937_64& engine);

// Tiles that cover the whole low-res grid: tile starts along each axis and the high-res
// indices [begin, end) each tile owns (every high-res point inside the grid's hull once).
struct TileAxis {
  std::vector<long> start;               // first low-res node of each tile
  std::vector<std::array<long, 2>> own;  // owned high-res index range of each tile
};
TileAxis tile_axis(long low_nodes, long crop_nodes, double origin, long step);

// Query points (normalised over the tile's hull) of the owned high-res indices of one tile:
// [P, 3] in (t, z, x) order, t slowest, and their high-res indices [P, 3].
std::pair<torch::Tensor, torch::Tensor> tile_points(const std::array<TileAxis, 3>& axes,
                                                    const std::array<long, 3>& tile,
                                                    const LowResGrid& grid,
                                                    const std::array<long, 3>& nodes);

// Mean and standard deviation of each channel over every frame and cell of the runs: [4] each.
std::pair<torch::Tensor, torch::Tensor> channel_statistics(const std::vector<RbRun>& runs);

}  // namespace surrox::training::super_resolution
