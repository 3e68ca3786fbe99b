#pragma once
// What the warm-start comparison measured on one case: the cold run and each model's warm run.
// Written by the runs (warm_start_runs.hpp), read by the statistics and the report.
#include <map>
#include <string>
#include <vector>

#include "couplers/field_guard.hpp"
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
inline Milestones cold_milestones(const CaseRecord& c) {
  Milestones m;
  m.accuracy_cycles = cycles_to_accuracy(c.cold, c.cold.cl, c.cold.cd);
  m.cauchy_cycles = c.cold.cauchy_cycle;
  m.accuracy_s = seconds_at(c.cold, m.accuracy_cycles);
  m.cauchy_s = seconds_at(c.cold, m.cauchy_cycles);
  return m;
}
inline Milestones warm_milestones(const CaseRecord& c, const WarmRun& w) {
  Milestones m;
  m.accuracy_cycles = cycles_to_accuracy(w.run, c.cold.cl, c.cold.cd);
  m.cauchy_cycles = w.run.cauchy_cycle;
  m.accuracy_s = w.inference_s + seconds_at(w.run, m.accuracy_cycles);
  m.cauchy_s = w.inference_s + seconds_at(w.run, m.cauchy_cycles);
  return m;
}

}  // namespace surrox::couplers
