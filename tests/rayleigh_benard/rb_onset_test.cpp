// ctest-labels: regression
// ctest-libraries: surrox_cli
// Linear onset between no-slip walls: in a box of one critical wavelength (k = 3.117) a
// single-mode perturbation decays at Ra = 1650 and grows at Ra = 1770; the kinetic-energy
// growth rates, interpolated to zero, give Ra_c = 1707.76 within 1 %, on a uniform and on a
// wall-stretched grid.
#include <gtest/gtest.h>

#include <cmath>

#include "apps/run_case.hpp"
#include "io/case_file.hpp"
#include "solvers/rayleigh_benard/rb_solver.hpp"
#include "support/test_paths.hpp"

namespace surrox::solvers::rayleigh_benard {
namespace {

// Growth rate σ of the velocity amplitude (½ d ln KE / dt) over t ∈ [10, 25].
double growth_rate(double ra, double stretching) {
  const io::CaseFile c = io::load_case_text(
      "solver: {type: rayleigh_benard}\n", "onset.yaml", apps::run_case_schema(),
      {"solver.rayleigh=" + std::to_string(ra), "solver.length=[2.0157797, 1]",
       "solver.cells=[32, 32]", "solver.initial=mode", "solver.amplitude=1e-5", "solver.cfl=0.8",
       "solver.end_time=25", "solver.stretching=" + std::to_string(stretching)});
  RayleighBenardSolver solver;
  solver.initialize(c.root.section("solver"), testing::runtime());
  solver.limit_step_to(10.0);  // as the driver does for an output at t = 10
  double ke10 = 0;
  while (!solver.finished()) {
    solver.advance();
    if (solver.time() == 10.0) ke10 = solver.instantaneous().at("kinetic_energy");
  }
  const double ke25 = solver.instantaneous().at("kinetic_energy");
  EXPECT_GT(ke10, 0);
  return 0.5 * std::log(ke25 / ke10) / 15.0;
}

void check_onset(double stretching) {
  const double low = growth_rate(1650, stretching), high = growth_rate(1770, stretching);
  EXPECT_LT(low, 0) << "Ra = 1650 must decay";
  EXPECT_GT(high, 0) << "Ra = 1770 must grow";
  const double ra_c = 1650 + (1770 - 1650) * (-low) / (high - low);
  std::cout << "stretching " << stretching << ": growth rates " << low << " (Ra 1650), " << high
            << " (Ra 1770) → Ra_c = " << ra_c << ", error " << 100 * (ra_c / 1707.76 - 1) << " %\n";
  EXPECT_NEAR(ra_c, 1707.76, 0.01 * 1707.76);
}

TEST(RayleighBenardOnset, CriticalRayleighNumberWithinOnePercent) { check_onset(0); }

TEST(RayleighBenardOnset, StretchedGridCriticalRayleighNumberWithinOnePercent) { check_onset(1.5); }

}  // namespace
}  // namespace surrox::solvers::rayleigh_benard
