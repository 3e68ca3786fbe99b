#pragma once
// The runs the neural-step coupler compares, each over the same windows of k solver steps from
// the same state: the pure solver, and the guarded neural run (each window: a proposal by the
// network, checked by the guard, else the solver's k steps; with online training, each
// fallback's pair trains the network). Both record the same figures at every window end,
// outside the timed work: the energy, ω at every `sample_every`-th window and the time mean of
// ω. The timed work is everything the run needs: solver steps, and for the guarded run the
// projection, inference, guard and online training.
#include <vector>

#include "couplers/neural_step/neural_step_guard.hpp"
#include "training/neural_step/neural_step_model.hpp"

namespace surrox::couplers {

using training::neural_step::NeuralStepModel;
using training::neural_step::NeuralStepNetwork;
using training::neural_step::NeuralStepOptions;
using training::neural_step::PodProjection;

struct QgStartState {
  std::vector<double> psi, omega;
  double time = 0;
  long step = 0;
};

struct NeuralStepWindows {
  long k = 1;        // solver steps per window
  double dt = 0;     // the solver's fixed step
  long windows = 0;  // windows per run
  long sample_every = 1;
  long blocks = 5;  // accepted fractions per block of windows (does online training help?)
};

struct QgRunRecord {
  std::vector<double> energy;                // at the end of each window
  std::vector<std::vector<double>> samples;  // ω at windows sample_every, 2 sample_every, …
  std::vector<double> mean_omega;            // time mean of ω over the window ends
  double work_s = 0;                         // timed work
  long solver_steps = 0;
  // Pure run, when asked: the guard's residual of the solver's own windows, and of the best
  // proposal in the span of a basis of the changes (ω₀ plus the change's projection).
  std::vector<double> own_residuals, pod_residuals;
};

struct GuardedRecord {
  QgRunRecord run;
  long accepted = 0, projection_failures = 0, bounds_failures = 0, residual_failures = 0;
  std::vector<long> accepted_per_block, windows_per_block;
  double projection_s = 0, inference_s = 0, guard_s = 0, solver_s = 0, training_s = 0;
  std::vector<double> residuals;  // of every proposal that reached the residual check
};

// The solver's state now (to start several runs from it).
QgStartState qg_start_state(const solvers::qg::QgSolver& solver);

// With a basis of the changes, also the residuals of the solver's own windows and of their
// best proposals in its span (untimed).
QgRunRecord run_pure_solver(solvers::qg::QgSolver& solver, const QgStartState& start,
                            const NeuralStepWindows& w,
                            const surrogates::pod::PodBasis* residuals_in = nullptr);

GuardedRecord run_guarded(solvers::qg::QgSolver& solver, NeuralStepModel& model,
                          const QgStartState& start, const NeuralStepWindows& w,
                          const GuardTolerances& tolerances, bool online);

}  // namespace surrox::couplers
