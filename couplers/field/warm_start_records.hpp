#pragma once
// What the warm-start comparison measured on one case: the cold run and each model's warm run.
// Written by the runs (warm_start_runs.hpp), read by the statistics and the report.
#include <map>
#include <string>
#include <vector>

#include "couplers/field/field_guard.hpp"
#include "couplers/steady_run.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"

namespace surrox::couplers {

using Surface = solvers::airfoil::AirfoilSolver::Surface;

struct WarmRun {
  SteadyRun run;           // iterations and solve time include putting the field in place
  double inference_s = 0;  // prediction and guard
  double total_s = 0;      // inference + solve
  GuardReport guard;
  double surrogate_cl = 0, surrogate_cd = 0;        // of the predicted field, before any cycle
  std::map<std::string, double> field_relative_l2;  // density, velocity_x, velocity_y, pressure
  Surface predicted_surface;
};

struct CaseRecord {
  std::string name;
  std::map<std::string, std::string> parameters;  // swept key path → YAML text
  long ni = 0, nj = 0;
  SteadyRun cold;
  Surface cold_surface;
  std::vector<WarmRun> warm;  // one per model, in the section's order
};

// Cold cycles / warm cycles; NaN when the warm run took none.
inline double iteration_ratio(const CaseRecord& c, const WarmRun& w) {
  return w.run.iterations > 0 ? static_cast<double>(c.cold.iterations) / w.run.iterations : NAN;
}
// Cold solve time / warm time including inference; NaN when the warm time is zero.
inline double wall_speedup(const CaseRecord& c, const WarmRun& w) {
  return w.total_s > 0 ? c.cold.solve_s / w.total_s : NAN;
}

// How soon a run was good enough by the criteria engineers use: cycles and wall time (a warm
// run's includes inference) to engineering accuracy against the cold run's converged Cl and Cd,
// and to SU2's Cauchy test; −1 cycles and NaN seconds where the run never got there.
struct Milestones {
  long accuracy_cycles = -1, cauchy_cycles = -1;
  double accuracy_s = NAN, cauchy_s = NAN;
};
// `run` against the reference Cl and Cd; `start_s` is the time before its first cycle.
inline Milestones milestones(const SteadyRun& run, double cl_reference, double cd_reference,
                             double start_s) {
  Milestones m;
  m.accuracy_cycles = cycles_to_accuracy(run, cl_reference, cd_reference);
  m.cauchy_cycles = run.cauchy_cycle;
  m.accuracy_s = start_s + seconds_at(run, m.accuracy_cycles);
  m.cauchy_s = start_s + seconds_at(run, m.cauchy_cycles);
  return m;
}
inline Milestones cold_milestones(const CaseRecord& c) {
  return milestones(c.cold, c.cold.cl, c.cold.cd, 0);
}
inline Milestones warm_milestones(const CaseRecord& c, const WarmRun& w) {
  return milestones(w.run, c.cold.cl, c.cold.cd, w.inference_s);
}

}  // namespace surrox::couplers
