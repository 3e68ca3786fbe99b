// ctest-labels: regression slow
// ctest-libraries: surrox_cli
// ctest-timeout: 600
// Ra = 1e4, Pr = 1, Lx = 2 (one pair of steady rolls): the steady Nusselt number converges at
// second order over three grids (16, 32, 64 cells across the layer), and at steady state the
// five Nusselt numbers (both plates, ⟨wb⟩, both dissipation relations) agree. On a grid
// stretched toward the walls (γ = 1) the errors against the uniform grids' Richardson value fall
// at second order from 16 to 32 cells, and the 32-cell value is within 0.05 % of it.
#include <gtest/gtest.h>

#include <cmath>

#include "apps/run_case.hpp"
#include "io/case_file.hpp"
#include "solvers/rayleigh_benard/rb_solver.hpp"
#include "support/test_paths.hpp"

namespace surrox::solvers::rayleigh_benard {
namespace {

Diagnostics steady(long nz, double stretching = 0) {
  const io::CaseFile c = io::load_case_text(
      "solver: {type: rayleigh_benard}\n", "ra1e4.yaml", apps::run_case_schema(),
      {"solver.rayleigh=1e4", "solver.length=[2, 1]",
       "solver.cells=[" + std::to_string(2 * nz) + ", " + std::to_string(nz) + "]",
       "solver.initial=mode", "solver.amplitude=0.05", "solver.cfl=0.8", "solver.end_time=400",
       "solver.steady_tolerance=1e-7", "solver.stretching=" + std::to_string(stretching)});
  RayleighBenardSolver<2> solver;
  solver.initialize(c.root.section("solver"), surrox::testing::runtime());
  while (!solver.finished()) solver.advance();
  EXPECT_LT(solver.time(), 400) << "no steady state on " << nz << " cells";
  return solver.instantaneous();
}

TEST(RayleighBenardConvergence, SteadyNusseltNumberConvergesAtSecondOrder) {
  std::vector<double> nu;
  for (long nz : {16, 32, 64}) {
    const Diagnostics d = steady(nz);
    nu.push_back(d.at("nu_bottom"));
    for (const char* name : {"nu_top", "nu_volume", "nu_kinetic", "nu_thermal"})
      EXPECT_NEAR(d.at(name) / d.at("nu_bottom"), 1.0, 1e-4) << name << " on " << nz << " cells";
    std::cout << "nz = " << nz << ": Nu = " << nu.back() << "\n";
  }
  const double order = std::log2((nu[0] - nu[1]) / (nu[1] - nu[2]));
  const double extrapolated = nu[2] - (nu[1] - nu[2]) / 3;
  std::cout << "order " << order << ", Richardson-extrapolated Nu = " << extrapolated << "\n";
  EXPECT_NEAR(order, 2.0, 0.15);
  EXPECT_NEAR(extrapolated, 2.65, 0.02);  // Clever & Busse (1974): Nu ≈ 2.66 at Ra = 1e4, k = π

  std::vector<double> stretched;
  for (long nz : {16, 32}) {
    const Diagnostics d = steady(nz, 1.0);
    stretched.push_back(d.at("nu_bottom"));
    for (const char* name : {"nu_top", "nu_volume", "nu_kinetic", "nu_thermal"})
      EXPECT_NEAR(d.at(name) / d.at("nu_bottom"), 1.0, 1e-4)
          << name << " on " << nz << " stretched cells";
    std::cout << "stretched (γ = 1), nz = " << nz << ": Nu = " << stretched.back() << "\n";
  }
  const double stretched_order =
      std::log2((stretched[0] - extrapolated) / (stretched[1] - extrapolated));
  std::cout << "stretched: order against the uniform Richardson value " << stretched_order
            << ", relative error on 32 cells " << (stretched[1] / extrapolated - 1) << "\n";
  EXPECT_NEAR(stretched_order, 2.0, 0.3);
  EXPECT_NEAR(stretched[1] / extrapolated, 1.0, 5e-4);
}

}  // namespace
}  // namespace surrox::solvers::rayleigh_benard
