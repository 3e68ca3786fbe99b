// ctest-labels: regression
// ctest-libraries: surrox_cli
// Linear onset between no-slip walls: in a box of one critical wavelength (k = 3.117) a
// single-mode perturbation decays at Ra = 1650 and grows at Ra = 1770; the kinetic-energy
// growth rates, interpolated to zero, give Ra_c = 1707.76 within 1 %, on a uniform and on a
// wall-stretched grid. In 3D the mode cos(2πx/L) cos(2πy/L) sin(πz) in a square box of side
// L = √2 λ_c has the same wavenumber |k| = 2π/λ_c (the rate depends on |k| only): it decays and
// grows at the same Rayleigh numbers, and Ra_c comes within 1 % on 8 × 8 cells horizontally
// (Ra_c(k) is flat at its minimum, so a coarse horizontal grid barely moves it) and 16
// wall-stretched cells in z.
#include <gtest/gtest.h>

#include <cmath>

#include "apps/run_case.hpp"
#include "io/case_file.hpp"
#include "solvers/solver.hpp"
#include "support/test_paths.hpp"

namespace surrox::solvers::rayleigh_benard {
namespace {

// Growth rate σ of the velocity amplitude (½ d ln KE / dt) over t ∈ [10, 25].
double growth_rate(const std::string& type, std::vector<std::string> settings, double ra) {
  settings.insert(settings.end(),
                  {"solver.rayleigh=" + std::to_string(ra), "solver.initial=mode",
                   "solver.amplitude=1e-5", "solver.cfl=0.8", "solver.end_time=25"});
  const io::CaseFile c = io::load_case_text("solver: {type: " + type + "}\n", "onset.yaml",
                                            apps::run_case_schema(), settings);
  auto solver = registry().create(type);
  solver->initialize(c.root.section("solver"), surrox::testing::runtime());
  solver->limit_step_to(10.0);  // as the driver does for an output at t = 10
  double ke10 = 0;
  while (!solver->finished()) {
    solver->advance();
    if (solver->time() == 10.0) ke10 = solver->monitor().at("kinetic_energy");
  }
  const double ke25 = solver->monitor().at("kinetic_energy");
  EXPECT_GT(ke10, 0);
  return 0.5 * std::log(ke25 / ke10) / 15.0;
}

void check_onset(const std::string& type, const std::vector<std::string>& settings,
                 double tolerance) {
  const double low = growth_rate(type, settings, 1650), high = growth_rate(type, settings, 1770);
  EXPECT_LT(low, 0) << "Ra = 1650 must decay";
  EXPECT_GT(high, 0) << "Ra = 1770 must grow";
  const double ra_c = 1650 + (1770 - 1650) * (-low) / (high - low);
  std::cout << type << ": growth rates " << low << " (Ra 1650), " << high
            << " (Ra 1770) → Ra_c = " << ra_c << ", error " << 100 * (ra_c / 1707.76 - 1) << " %\n";
  EXPECT_NEAR(ra_c, 1707.76, tolerance * 1707.76);
}

// Lx = λ_c = 2π/3.117 in 2D; √2 λ_c in 3D.
const std::string kLength2d = "solver.length=[2.0157797, 1]";
const std::string kLength3d = "solver.length=[2.8507430, 2.8507430, 1]";

TEST(RayleighBenardOnset, CriticalRayleighNumberWithinOnePercent) {
  check_onset("rayleigh_benard", {kLength2d, "solver.cells=[32, 32]"}, 0.01);
}

TEST(RayleighBenardOnset, StretchedGridCriticalRayleighNumberWithinOnePercent) {
  check_onset("rayleigh_benard", {kLength2d, "solver.cells=[32, 32]", "solver.stretching=1.5"},
              0.01);
}

TEST(RayleighBenardOnset, ThreeDimensionsCriticalRayleighNumberWithinOnePercent) {
  check_onset("rayleigh_benard_3d", {kLength3d, "solver.cells=[8, 8, 16]", "solver.stretching=1.5"},
              0.01);
}

}  // namespace
}  // namespace surrox::solvers::rayleigh_benard
