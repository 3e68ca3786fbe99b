// ctest-labels: regression
// ctest-libraries: surrox_solvers
// ctest-timeout: 300
// Airfoil solver against the exact potential flow of a Joukowski airfoil: at M = 0.15, α = 4°
// the Euler lift on the generator's marched O-grid (mesh/airfoil_grid.hpp, 128 × 64 cells,
// far field 30 chords, point-vortex far-field correction) must be within 2 % of
// 8π (R/c) sin(α + β) / √(1 − M²), after an 8-order residual drop.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "mesh/airfoil_geometry.hpp"
#include "mesh/airfoil_grid.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"
#include "support/test_paths.hpp"
#include "tests/airfoil/lusgs_test_parameters.hpp"

namespace surrox::solvers::airfoil {
namespace {

TEST(AirfoilJoukowski, LiftAtMach015IsWithinTwoPercentOfTheExactValue) {
  const mesh::JoukowskiAirfoil joukowski(-0.1, 0.05);
  mesh::AirfoilGridOptions options;
  options.cells_around = 128;
  options.cells_normal = 64;
  options.first_cell_height = 2e-3;
  options.farfield_radius = 30;
  const mesh::CurvilinearGrid grid = mesh::build_airfoil_grid(joukowski.shape(513), options);

  AirfoilParameters p = lusgs_test_parameters();
  p.mach = 0.15;
  p.alpha_deg = 4;
  p.cfl = 1000;
  p.max_iterations = 3000;
  p.far_field = FarField::kVortex;
  p.linear_fix = 0.2;
  AirfoilSolver solver;
  solver.initialize(p, grid);
  const auto start = std::chrono::steady_clock::now();
  while (!solver.finished()) solver.advance();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const double alpha = 4 * M_PI / 180;
  const double exact = joukowski.lift_coefficient(alpha) / std::sqrt(1 - 0.15 * 0.15);
  const Diagnostics d = solver.diagnostics();
  std::cout << "Joukowski M 0.15 α 4°: " << solver.step() << " iterations (" << seconds
            << " s), residual " << solver.residual() << ", cl " << d.at("cl") << " vs exact·PG "
            << exact << " (" << 100 * (d.at("cl") / exact - 1) << " %), cd " << d.at("cd") << "\n";
  EXPECT_EQ(d.at("converged"), 1.0);
  EXPECT_NEAR(d.at("cl"), exact, 0.02 * exact);
  EXPECT_LT(std::fabs(d.at("cd")), 0.01);
}

}  // namespace
}  // namespace surrox::solvers::airfoil
