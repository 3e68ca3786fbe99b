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

}  // namespace surrox::couplers
