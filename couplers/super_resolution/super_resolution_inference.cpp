#include "couplers/super_resolution/super_resolution_inference.hpp"

#include <algorithm>
#include <cmath>

#include "core/timer.hpp"
#include "surrogates/super_resolution/local_implicit_grid.hpp"

namespace surrox::couplers {
namespace {

namespace sr = training::super_resolution;
using torch::indexing::Slice;

constexpr long kDecodeChunk = 16384;

// The tiles of one axis with their owned fine indices widened to cover [0, fine) and clipped
// to it (the first tile takes the points before its hull, the last those after).
sr::TileAxis covering_axis(long nodes, long crop, double origin, long step, long fine) {
  sr::TileAxis axis = sr::tile_axis(nodes, crop, origin, step);
  axis.own.front()[0] = 0;
  axis.own.back()[1] = fine;
  for (auto& own : axis.own) own = {std::clamp(own[0], 0L, fine), std::clamp(own[1], 0L, fine)};
  return axis;
}

// The fine rows between a wall and the nearest coarse centre (fine index (f − 1)/2 from the
// wall) lie outside every tile: linear from the wall's value (b = ±½, u = w = 0) to the value
// at that centre. p has no wall value and keeps the tile's linear extrapolation.
void close_walls(torch::Tensor& fields, long fz) {
  const long rows = fz / 2, nz = fields.size(2);
  if (rows == 0) return;
  const double centre = 0.5 * double(fz);  // the centre's height above the wall, in fine cells
  const double walls[2][4] = {{NAN, 0.5, 0, 0}, {NAN, -0.5, 0, 0}};
  for (int side = 0; side < 2; ++side) {
    // Rows counted from this wall: k → row k (bottom) or nz − 1 − k (top).
    const auto row = [&](long k) { return side == 0 ? k : nz - 1 - k; };
    for (int c = 1; c < 4; ++c) {
      torch::Tensor channel = fields[c];  // [T, Z, X]
      const torch::Tensor at_centre =
          fz % 2 == 0 ? 0.5 * (channel.select(1, row(rows - 1)) + channel.select(1, row(rows)))
                      : channel.select(1, row(rows)).clone();
      for (long k = 0; k < rows; ++k)
        channel.select(1, row(k)).copy_(walls[side][c] +
                                        (double(k) + 0.5) / centre * (at_centre - walls[side][c]));
    }
  }
}

}  // namespace

SuperResolved super_resolve(sr::SuperResolutionModel& m, const torch::Tensor& coarse,
                            bool close_wall_rows) {
  const sr::Downsampling& f = m.downsampling;
  const long tc = coarse.size(1), zc = coarse.size(2), xc = coarse.size(3);
  const std::array<long, 3> fine = {(tc - 1) * f.t + 1, zc * f.z, xc * f.x};
  // Low-res nodes at the coarse cell centres, x padded periodically by one column each side.
  sr::LowResGrid grid;
  grid.nodes = torch::cat({coarse.index({Slice(), Slice(), Slice(), Slice(xc - 1, xc)}), coarse,
                           coarse.index({Slice(), Slice(), Slice(), Slice(0, 1)})},
                          3)
                   .to(torch::kFloat32)
                   .contiguous();
  grid.step = {f.t, f.z, f.x};
  grid.origin = {0, 0.5 * double(f.z - 1), 0.5 * double(f.x - 1) - double(f.x)};
  const auto crop = m.crop();
  std::array<sr::TileAxis, 3> axes;
  for (int d = 0; d < 3; ++d)
    axes[d] = covering_axis(grid.nodes.size(d + 1), crop[d], grid.origin[d], grid.step[d], fine[d]);

  SuperResolved out;
  out.model =
      torch::full({4, fine[0] * fine[1] * fine[2]}, NAN, torch::kFloat64);  // NaN: not covered
  out.trilinear = torch::full_like(out.model, NAN);
  const bool with_model = !m.network.is_empty();  // else the trilinear baseline only
  Stopwatch normalising;
  const torch::Tensor normalised =
      with_model ? m.normalise(grid.nodes.unsqueeze(0))[0] : torch::Tensor();
  out.inference_s += normalising.seconds();
  torch::NoGradGuard no_grad;
  for (std::size_t it = 0; it < axes[0].start.size(); ++it)
    for (std::size_t iz = 0; iz < axes[1].start.size(); ++iz)
      for (std::size_t ix = 0; ix < axes[2].start.size(); ++ix) {
        const std::array<long, 3> tile = {long(it), long(iz), long(ix)};
        bool empty = false;
        for (int d = 0; d < 3; ++d) empty |= axes[d].own[tile[d]][0] >= axes[d].own[tile[d]][1];
        if (empty) continue;
        const std::array<long, 3> start = {axes[0].start[it], axes[1].start[iz], axes[2].start[ix]};
        // narrow(), not a std::vector<TensorIndex>: copying LibTorch 1.13's TensorIndex reads
        // its uninitialised bool member (UndefinedBehaviorSanitizer, TensorIndexing.h:108).
        const auto tile_of = [&](const torch::Tensor& t) {
          return t.narrow(1, start[0], crop[0])
              .narrow(2, start[1], crop[1])
              .narrow(3, start[2], crop[2]);
        };
        const auto [points, index] = sr::tile_points(axes, tile, grid, crop);
        const torch::Tensor flat =
            (index.select(1, 0) * fine[1] + index.select(1, 1)) * fine[2] + index.select(1, 2);
        Stopwatch model_watch;
        if (with_model) {
          const torch::Tensor latent = m.network->encode(tile_of(normalised).unsqueeze(0));
          std::vector<torch::Tensor> parts;
          for (long b = 0; b < points.size(0); b += kDecodeChunk)
            parts.push_back(
                m.network->decode(latent, points.slice(0, b, b + kDecodeChunk).unsqueeze(0))[0]);
          out.model.index_copy_(1, flat, m.denormalise(torch::cat(parts)).t().to(torch::kFloat64));
        }
        out.inference_s += model_watch.seconds();
        Stopwatch trilinear_watch;
        const torch::Tensor tri = surrogates::super_resolution::trilinear(
            tile_of(grid.nodes).unsqueeze(0), points.unsqueeze(0))[0];
        out.trilinear.index_copy_(1, flat, tri.t().to(torch::kFloat64));
        out.trilinear_s += trilinear_watch.seconds();
        ++out.tiles;
        out.points += points.size(0);
      }
  out.model = out.model.view({4, fine[0], fine[1], fine[2]});
  out.trilinear = out.trilinear.view({4, fine[0], fine[1], fine[2]});
  if (close_wall_rows) {
    close_walls(out.model, f.z);
    close_walls(out.trilinear, f.z);
  }
  if (!with_model) out.model = torch::Tensor();
  return out;
}

}  // namespace surrox::couplers
