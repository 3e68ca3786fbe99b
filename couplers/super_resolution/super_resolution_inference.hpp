#pragma once
// A trained MeshfreeFlowNet applied to a whole coarse Rayleigh–Bénard series: the coarse frames
// are the model's low-res nodes (every f_t-th frame of the fine series; in space the coarse
// cell centres, which sit at fine index (f − 1)/2 + n·f, the block centres of training with
// `average: true`), cut into space-time tiles of the model's crop as `surrox evaluate` does,
// and every fine grid point is queried in the tile that owns it. x is periodic: one coarse
// column is appended on each side so that every fine column lies inside a tile; the fine cells
// between the wall and the first (last) coarse centre are linear extrapolations of the nearest
// tile's implicit grid, or (close_walls) linear from the wall's value (b = ±½, u = w = 0) to
// the value at that centre. Trilinear interpolation of the same coarse series on the same tiles
// is the baseline, with the same wall rows.
#include <torch/torch.h>

#include <array>

#include "training/super_resolution/super_resolution_model.hpp"

namespace surrox::couplers {

struct SuperResolved {
  torch::Tensor model;      // [4, T, Z, X] float64, physical units (undefined without a network)
  torch::Tensor trilinear;  // the same grid from trilinear interpolation
  double inference_s = 0;   // the model: normalise, encode, decode, denormalise
  double trilinear_s = 0;
  long tiles = 0, points = 0;
};

// coarse [4, Tc, Zc, Xc] float64 → the fine grid (Tc − 1)·f_t + 1 × Zc·f_z × Xc·f_x.
SuperResolved super_resolve(training::super_resolution::SuperResolutionModel& model,
                            const torch::Tensor& coarse, bool close_walls = true);

}  // namespace surrox::couplers
