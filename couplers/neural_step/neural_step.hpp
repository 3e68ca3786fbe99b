#pragma once
// The `neural_step` coupler: guarded neural time steps for the QG double gyre with
// online training. A network advances the vorticity by k solver steps at a time in POD space
// (neural_step_model); a guard checks each proposal (neural_step_guard: the input's POD
// projection error, energy and enstrophy bounds, the vorticity equation's trapezoid residual
// over the window) and the solver takes the k steps where it fails. With online training the
// fallbacks' (before, after) pairs keep training the network in memory (TorchFort-style).
//
// Per case: spin up the solver to `start_time`; run it for `training_time` recording ω every k
// steps (the POD and the pretraining data); from the state then, run the pure solver, the pure
// solver from a perturbed state (1e-8 of ω: the chaos floor of every error), and the guarded
// run at each guard tolerance, frozen and with online training, over the same windows to the
// case's end_time (neural_step_runs). Reports accepted fractions (also per block of windows),
// speedups in wall time of the timed work (medians over `repeats`), the time-mean energy error
// and the ω RMSE against the pure solver (neural_step_report). One MPI rank; the solver's
// `dt` must be fixed (a window is k equal steps).
#include "couplers/coupler.hpp"

namespace surrox::couplers {

class NeuralStepCoupler final : public Coupler {
 public:
  static Schema schema();
  void run(Runtime& runtime, const CaseNode& section, const std::vector<CoupledCase>& cases,
           const std::filesystem::path& output_dir, nlohmann::json& results) override;
};

}  // namespace surrox::couplers
