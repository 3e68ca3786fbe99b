#pragma once
// One run of a steady solver to its own criterion (or its iteration limit), as comparisons count
// it: cycles, whether it converged, solve time, where the residual crossed each decade for good,
// and the force coefficients of the final state. Divergence (a non-finite residual) ends the run.
#include <cmath>

#include "solvers/residual_levels.hpp"
#include "solvers/steady_flow_solver.hpp"

namespace surrox::couplers {

struct SteadyRun {
  solvers::ResidualLevels levels;
  long iterations = 0;
  bool converged = false;
  double solve_s = 0;
  double cl = NAN, cd = NAN;
  double final_residual = NAN;
};

// Advances `solver` from its current state until finished(); collective like the solver.
SteadyRun run_to_criterion(solvers::SteadyFlowSolver& solver);

}  // namespace surrox::couplers
