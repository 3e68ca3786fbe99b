// ctest-labels: regression slow
// ctest-libraries: surrox_solvers
// The shipped NACA 0012 RANS case (TMR's sharp-TE geometry, M 0.15, Re 6e6, α 10°, SA-neg with
// second-order convection of ν̃, the near wake clustered by the grid's wake_growth, point-vortex
// far field at 100 chords) on the coarsest grid of docs/validation/rans.md (128 × 64 cells, first
// cell 4e-6 chord), at most 2000 cycles through the CLI (the density residual reaches 8 orders at
// cycle 1812). Pinned to the values measured on that grid (a regression band, not TMR's values:
// the coarse grid's CD is 82 % above TMR's, docs/validation/rans.md): CL 1.054138 (TMR
// 1.0909–1.0913), CD 0.0222875 (friction 0.0054154). The bands (CL ± 0.001, CD ± 0.00001,
// friction ± 0.000004) are a third of what first-order ν̃ convection changes on this grid
// (CL 1.051213, CD 0.0223264, friction 0.0054016), and far below what the unclustered wake
// changes (CL 1.093969), so losing either, or any change of the discretisation or the model of
// that size, shows here. The second test runs the shipped (medium) grid.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "shipped_rans_run.hpp"

namespace {

TEST(Naca0012RansRegression, CoarseGridForcesAndConvergence) {
  nlohmann::json summary;
  ASSERT_TRUE(surrox::testing::run_shipped_rans(
      "--set solver.max_iterations=2000 --set solver.mesh.cells_around=128"
      " --set solver.mesh.cells_normal=64 --set solver.mesh.first_cell_height=4e-6"
      " --set 'solver.convergence.stop_on=[residual]'"
      " --set output.vtk=false --set output.monitor_interval=100",
      summary));
  const auto& s = summary.at("results").at("airfoil");
  const double cl = s.at("cl").get<double>(), cd = s.at("cd").get<double>();
  const double cdf = s.at("cd_friction").get<double>(), cdp = s.at("cd_pressure").get<double>();
  // Measured (2026-11-26, line_implicit, second-order ν̃, wake_growth 1.2): CL 1.0541382,
  // CD 0.0222875 (friction 0.0054154, pressure 0.0168721).
  EXPECT_NEAR(cl, 1.054138, 0.001) << s.dump();
  EXPECT_NEAR(cd, 0.0222875, 0.00001) << s.dump();
  EXPECT_NEAR(cdf, 0.0054154, 0.000004) << s.dump();
  EXPECT_NEAR(cd, cdf + cdp, 1e-12) << s.dump();
  // The density residual reaches 1e-8 of its first value at cycle 1812; above 1e-6 after 2000
  // cycles means the convergence regressed.
  EXPECT_LT(s.at("final_residual").get<double>(), 1e-6) << s.dump();
}

// The shipped case as it is (256 × 128, first cell 2e-6, stopped by the Cauchy test on CL and
// CD): issue 15's validation 2 on the medium grid of docs/validation/rans.md, where CL is within
// 1 % of TMR's grid-converged SA value (measured −0.21 % at 8 orders; 1.0541 on the coarse grid
// and 1.1155 with the fanned near wake both fail it) and CD, 13 % high on this grid (+1.99 % on
// 512 × 256, too slow for a test), is pinned to the measured 0.0138310 within 2e-4, a seventh of
// the step to the fine grid.
TEST(Naca0012RansRegression, MediumGridLiftWithinOnePercentOfTmr) {
  nlohmann::json summary;
  ASSERT_TRUE(surrox::testing::run_shipped_rans(
      "--set output.vtk=false --set output.monitor_interval=100", summary));
  const auto s = summary.at("results").at("airfoil");
  constexpr double kTmrCl = 1.0911, kTmrCd = 0.01224;  // the middles of TMR's SA ranges
  EXPECT_EQ(s.at("converged").get<double>(), 1.0) << s.dump();
  EXPECT_NEAR(s.at("cl").get<double>(), kTmrCl, 0.01 * kTmrCl) << s.dump();
  EXPECT_NEAR(s.at("cd").get<double>(), 0.0138310, 2e-4) << s.dump();
  EXPECT_GT(s.at("cd").get<double>(), kTmrCd) << "the medium grid's drag is above TMR's";
}

}  // namespace
