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
// Its steps, one file each: warm_start_setup (load and validate), warm_start_runs (cold and warm
// runs of a case), warm_start_statistics (over the test set), warm_start_report (the writers).
// Writes OUTDIR/comparison.csv (one row per case and start), OUTDIR/comparison.md (the table)
// and OUTDIR/cases/NAME/surface.csv (x/c, upper, Cp of the converged field and of each model's
// prediction). One MPI rank: wall times compare runs on an otherwise idle core.
#include "couplers/coupler.hpp"

namespace surrox::couplers {

class WarmStart final : public Coupler {
 public:
  static Schema schema();
  void run(Runtime& runtime, const CaseNode& section, const std::vector<CoupledCase>& cases,
           const std::filesystem::path& output_dir, nlohmann::json& results) override;
};

}  // namespace surrox::couplers
