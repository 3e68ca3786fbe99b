#pragma once
// Load and validate a super-resolution comparison before anything runs: one MPI rank, a
// MeshfreeFlowNet model file (family super_resolution, channels p, b, u, w), a 2D
// Rayleigh–Bénard case on a uniform grid whose spacing is the model's training grid, and a fine
// grid, run length and frame count that the model's factors divide. The case's `solver` section
// is the fine run; the coarse run is the same section with its cells divided by the model's
// spatial factors, writing every f_t-th frame of the fine run's frame interval (the model's).
#include <filesystem>

#include "core/runtime.hpp"
#include "couplers/coupler.hpp"
#include "training/super_resolution/super_resolution_model.hpp"

namespace surrox::couplers {

struct SrCaseGrids {
  CaseNode fine, coarse;          // solver sections
  long fine_nx = 0, fine_nz = 0;  // cells
  long coarse_nx = 0, coarse_nz = 0;
  long fine_frames = 0, coarse_frames = 0;  // frames including t = 0
  double frame_interval = 0;                // of the fine series (the model's)
  double lx = 0, end_time = 0, average_from = 0, rayleigh = 0, prandtl = 0;
};

struct SrSetup {
  training::super_resolution::SuperResolutionModel model;
  std::filesystem::path model_path;
  bool run_fine = true;
  bool close_walls = true;
  bool has_model = false;  // false: `model` empty, the trilinear baseline only
};

// InputError (exit 2) at the section's `model` key for a file that is not a super-resolution
// model or one trained on other channels. An empty `model`: no network, the section's
// `factors` and `frame_interval` instead (the trilinear baseline alone).
SrSetup load_super_resolution_model(const Runtime& runtime, const CaseNode& section);

// The fine and coarse solver sections of one case; InputError at the case's keys when the case
// does not fit the model.
SrCaseGrids super_resolution_grids(const SrSetup& setup, const CoupledCase& c);

}  // namespace surrox::couplers
