#pragma once
// One run of a steady solver to its own criterion (or its iteration limit), as comparisons count
// it: cycles, whether it converged, solve time, where the residual crossed each decade for good,
// the cycle at which SU2's Cauchy test on Cl and Cd first held, the force coefficients after
// every cycle (for engineering accuracy against a reference) and of the final state. Divergence
// (a non-finite residual) ends the run.
#include <cmath>
#include <vector>

#include "solvers/cauchy_criterion.hpp"
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
  // After cycle n (index n − 1): Cl and Cd as the solver reports them, and the solve time so far.
  std::vector<double> cl_history, cd_history, seconds;
  long cauchy_cycle = -1;  // first cycle at which the Cauchy test held; −1: never
};

// Engineering accuracy (docs/validation/warm_start.md): |Cl − Cl∞| ≤ 1e-4 and |Cd − Cd∞| ≤ 1e-5.
inline constexpr double kClTolerance = 1e-4, kCdTolerance = 1e-5;

// Advances `solver` from its current state until finished(); collective like the solver. The
// Cauchy test on Cl and Cd is only watched (SU2's window and our default threshold), whatever
// the case stops on.
SteadyRun run_to_criterion(solvers::SteadyFlowSolver& solver);

// The first cycle from which |Cl − cl_reference| ≤ kClTolerance and |Cd − cd_reference| ≤
// kCdTolerance hold to the end of the run; −1 when the last cycle misses.
long cycles_to_accuracy(const SteadyRun& run, double cl_reference, double cd_reference);
// Solve time after `cycle` cycles; NaN for a cycle the run did not reach (or −1).
double seconds_at(const SteadyRun& run, long cycle);

}  // namespace surrox::couplers
