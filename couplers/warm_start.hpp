#pragma once
// The warm-start comparison (arXiv:2106.01775, CFDNet): for each test case, the airfoil solver
// from the free stream (cold) and from each model's predicted steady field (warm), every run to
// the case's own convergence criterion (residual_drop relative to the free stream's residual on
// the same grid, which warm starts keep). Reports per case and model: cycles, wall time (warm:
// prediction + guard + solve), Cl and Cd, the guard's repairs, the surrogate-only Cl and Cd (the
// predicted field's wall pressure integrated by the solver's wall fluxes) and the predicted
// field's relative L2 errors against the converged cold field; and over the test set: medians of
// the cycle and wall-time ratios, the largest Cl/Cd differences and the Spearman rank correlation
// of surrogate-only Cl and Cd with the CFD values.
//
// Writes OUTDIR/comparison.csv (one row per case and start), OUTDIR/comparison.md (the table)
// and OUTDIR/cases/NAME/surface.csv (x/c, upper, Cp of the converged field and of each model's
// prediction). One MPI rank: wall times compare runs on an otherwise idle core.
#include "couplers/coupler.hpp"
#include "couplers/field_guard.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"

namespace surrox::couplers {

class WarmStart final : public Coupler {
 public:
  static Schema schema();
  void run(Runtime& runtime, const CaseNode& section, const std::vector<CoupledCase>& cases,
           const std::filesystem::path& output_dir, nlohmann::json& results) override;
};

// Starts `solver` from `field` (guarded). The solver sets its far-field vortex from the field's
// own lift (before that fix a converged field restarted with zero circulation took 113 of the
// cold start's 259 cycles on the 32 × 16 test grid). Returns the extra cycles spent before the
// field is in place (now always 0), which the caller counts as iterations.
long start_from_field(solvers::airfoil::AirfoilSolver& solver, const PrimitiveField& field);

// Spearman rank correlation (average ranks for ties); NaN with fewer than 3 values or no spread.
double spearman(const std::vector<double>& a, const std::vector<double>& b);
double median(std::vector<double> values);

}  // namespace surrox::couplers
