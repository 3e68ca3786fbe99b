#pragma once
// One Rayleigh–Bénard solve as the super-resolution comparison uses it: the solver from the
// registry, run to its end time with steps landing on every output time, keeping each frame's
// cell fields (p, b, u, w, as the solver writes them) and the solver's own figures there. The
// wall time counts the solve and the frame capture, not file output.
#include <torch/torch.h>

#include <vector>

#include "core/case_node.hpp"
#include "core/runtime.hpp"
#include "solvers/solver.hpp"

namespace surrox::couplers {

struct RbSeries {
  torch::Tensor fields;  // [4, T, Z, X] float64: p, b, u, w at cell centres
  std::vector<double> times;
  std::vector<solvers::Diagnostics> frame_figures;  // the solver's monitor() at each frame
  solvers::Diagnostics diagnostics;                 // at the end (time averages included)
  double solve_s = 0;
  long steps = 0;
};

// Frames at t = 0, interval, 2·interval, … up to the end time.
RbSeries run_rb_series(Runtime& runtime, const CaseNode& solver_section, double interval);

}  // namespace surrox::couplers
