#include "surrogates/super_resolution/local_implicit_grid.hpp"

#include <array>

namespace surrox::surrogates::super_resolution {

GridCorners grid_corners(const torch::Tensor& grid, const torch::Tensor& points) {
  TORCH_CHECK(grid.dim() == 5, "the latent grid must be [B, C, Nt, Nz, Nx]");
  TORCH_CHECK(points.dim() == 3 && points.size(2) == 3 && points.size(0) == grid.size(0),
              "query points must be [B, P, 3] with the grid's batch size");
  const long batch = grid.size(0), channels = grid.size(1), count = points.size(1);
  const std::array<long, 3> n = {grid.size(2), grid.size(3), grid.size(4)};
  for (long d : n) TORCH_CHECK(d >= 2, "every axis of the latent grid needs 2 nodes or more");
  const auto options = points.options();
  const torch::Tensor nodes_minus_one =
      torch::tensor({double(n[0] - 1), double(n[1] - 1), double(n[2] - 1)}, options);
  const torch::Tensor scaled = points * nodes_minus_one;  // [B, P, 3] in node units
  // The cell's lower corner: floor, kept inside [0, N − 2] so the last node belongs to the
  // last cell. Integer indices carry no gradient; the fraction does.
  const torch::Tensor lower =
      torch::minimum(torch::floor(scaled.detach()).clamp_min(0), nodes_minus_one - 1);
  const torch::Tensor fraction = scaled - lower;  // [B, P, 3]
  const torch::Tensor index0 = lower.to(torch::kLong);

  std::vector<torch::Tensor> weights, relative, linear;
  for (int corner = 0; corner < 8; ++corner) {
    const std::array<long, 3> bit = {(corner >> 2) & 1, (corner >> 1) & 1, corner & 1};
    torch::Tensor w = torch::ones({batch, count}, options);
    std::vector<torch::Tensor> rel(3);
    torch::Tensor flat = torch::zeros({batch, count}, index0.options());
    for (int d = 0; d < 3; ++d) {
      const torch::Tensor f = fraction.select(2, d);
      w = w * (bit[d] ? f : 1 - f);
      rel[d] = f - double(bit[d]);
      flat = flat * n[d] + index0.select(2, d) + bit[d];
    }
    weights.push_back(w);
    relative.push_back(torch::stack(rel, -1));
    linear.push_back(flat);
  }
  GridCorners corners;
  corners.weights = torch::stack(weights, -1);   // [B, P, 8]
  corners.relative = torch::stack(relative, 2);  // [B, P, 8, 3]
  // Gathered from a channel-last copy of the grid, the codes come out contiguous in the layout
  // the decoder reads (a channel-first gather needs a strided permute copy of all P·8·C values).
  const torch::Tensor index = torch::stack(linear, -1).reshape({batch, count * 8, 1});
  corners.values = grid.reshape({batch, channels, -1})
                       .transpose(1, 2)
                       .contiguous()
                       .gather(1, index.expand({batch, count * 8, channels}))
                       .reshape({batch, count, 8, channels});  // [B, P, 8, C]
  return corners;
}

torch::Tensor query_local_implicit_grid(const Decoder& decoder, const torch::Tensor& grid,
                                        const torch::Tensor& points) {
  const GridCorners c = grid_corners(grid, points);
  const torch::Tensor features = torch::cat({c.relative, c.values.to(c.relative.dtype())}, -1);
  const long batch = features.size(0), count = features.size(1);
  const torch::Tensor decoded = decoder(features.reshape({-1, features.size(3)}));
  return (decoded.reshape({batch, count, 8, -1}) * c.weights.unsqueeze(-1)).sum(2);
}

torch::Tensor trilinear(const torch::Tensor& grid, const torch::Tensor& points) {
  const GridCorners c = grid_corners(grid, points);
  return (c.values * c.weights.unsqueeze(-1)).sum(2);
}

}  // namespace surrox::surrogates::super_resolution
