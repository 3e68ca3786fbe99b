#pragma once
// The local implicit grid of MeshfreeFlowNet (Jiang et al., SC20; maxjiang93/space_time_pde,
// src/local_implicit_grid.py and src/regular_nd_grid_interpolation.py): a value at any point of
// a regular 3D grid's box is the trilinear blend of what a decoder makes of each of the 8
// surrounding grid nodes' codes and the point's coordinate relative to that node.
//
// Coordinates are (t, z, x) normalised to [0, 1] over the grid: node n of an axis with N nodes
// sits at n / (N − 1), as in the reference (xmin = 0, xmax = 1, nodes at both ends).
#include <torch/torch.h>

#include <functional>

namespace surrox::surrogates::super_resolution {

// The 8 corners of the grid cell around each point.
struct GridCorners {
  torch::Tensor values;    // [B, P, 8, C]: the grid's codes at the corners
  torch::Tensor weights;   // [B, P, 8]: trilinear weights (sum 1), differentiable in the points
  torch::Tensor relative;  // [B, P, 8, 3]: (point − corner) in cell widths, in [−1, 1]
};

// grid [B, C, Nt, Nz, Nx] (every N ≥ 2), points [B, P, 3] in [0, 1]. Points outside are
// blended with the nearest cell's weights (linear extrapolation), not clipped.
GridCorners grid_corners(const torch::Tensor& grid, const torch::Tensor& points);

// decoder: [rows, 3 + C] (relative coordinate, code) → [rows, O]. Returns [B, P, O].
using Decoder = std::function<torch::Tensor(const torch::Tensor&)>;
torch::Tensor query_local_implicit_grid(const Decoder& decoder, const torch::Tensor& grid,
                                        const torch::Tensor& points);

// Trilinear interpolation of grid values: the local implicit grid whose decoder returns the
// corner's code unchanged. Returns [B, P, C].
torch::Tensor trilinear(const torch::Tensor& grid, const torch::Tensor& points);

}  // namespace surrox::surrogates::super_resolution
