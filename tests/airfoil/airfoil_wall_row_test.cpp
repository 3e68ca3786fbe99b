// ctest-labels: unit regression
// ctest-libraries: surrox_solvers
// Airfoil solver: the wall row of LU-SGS (lusgs option wall_mirror, docs/validation/airfoil.md
// "Convergence: why the wall row lags"). With the ghost seen as the mirror of the wall cell the
// small NACA 0012 cases, Euler and laminar, reach 8 orders in fewer cycles than with the frozen
// ghost, to the same Cl and Cd. With SURROX_PRINT_ROWS=1 the tests also print, every 50 cycles,
// the density residual, the share of Σ(R_ρ/V)² in the wall row and the mean reduction per cycle
// since the last print: the evidence of the validation section, on this grid.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "mesh/airfoil_geometry.hpp"
#include "mesh/airfoil_grid.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"
#include "tests/airfoil/converged_run.hpp"
#include "tests/airfoil/lusgs_test_parameters.hpp"
#include "tests/airfoil/naca_test_grid.hpp"

namespace surrox::solvers::airfoil {
namespace {

using testing::naca0012_grid;

AirfoilParameters wall_row_euler_case() {
  AirfoilParameters p = lusgs_test_parameters();
  p.mach = 0.5;
  p.alpha_deg = 2;
  p.cfl = 1000;
  p.max_iterations = 3000;
  return p;
}

AirfoilParameters wall_row_laminar_case() {
  AirfoilParameters p = wall_row_euler_case();
  p.equations = Equations::kNavierStokes;
  p.reynolds = 2000;
  p.alpha_deg = 1;
  p.limiter = Limiter::kNone;
  return p;
}

using testing::ConvergedRun;

ConvergedRun converge(AirfoilParameters p, int wall_mirror, const mesh::CurvilinearGrid& grid) {
  p.smoother_options["wall_mirror"] = wall_mirror;
  AirfoilSolver solver;
  solver.initialize(p, grid);
  const bool print = std::getenv("SURROX_PRINT_ROWS") != nullptr;
  const mesh::GridMetrics metrics = mesh::compute_metrics(grid);
  double last = 1;
  while (!solver.finished()) {
    solver.advance();
    if (!print || solver.step() % 50 != 0) continue;
    solver.compute_residual();
    const auto r = solver.residual_host();
    double wall = 0, all = 0;
    for (std::size_t i = 0; i < r[0].extent(0); ++i)
      for (std::size_t j = 0; j < r[0].extent(1); ++j) {
        const double q = r[0](i, j) / metrics.area(i, j);
        all += q * q;
        if (j == 0) wall += q * q;
      }
    std::printf("wall_mirror %d cycle %ld residual %.3e wall-row share %.3f rate %.4f\n",
                wall_mirror, solver.step(), solver.residual(), wall / all,
                std::pow(solver.residual() / last, 1.0 / 50));
    last = solver.residual();
  }
  const Diagnostics d = solver.diagnostics();
  return {solver.step(), d.at("cl"), d.at("cd"), d.at("converged") == 1.0};
}

void expect_faster_to_the_same_solution(const AirfoilParameters& p,
                                        const mesh::CurvilinearGrid& grid) {
  // Both stop at 8 orders: the coefficients agree to what that criterion leaves.
  testing::expect_fewer_cycles_same_solution("frozen ghost", converge(p, 0, grid), "mirror",
                                             converge(p, 2, grid), 0.8);
}

TEST(AirfoilWallRow, MirrorGhostConvergesEulerInFewerCycles) {
  expect_faster_to_the_same_solution(wall_row_euler_case(), naca0012_grid(2e-3));
}

TEST(AirfoilWallRow, MirrorGhostConvergesLaminarInFewerCycles) {
  expect_faster_to_the_same_solution(wall_row_laminar_case(), naca0012_grid(5e-4));
}

}  // namespace
}  // namespace surrox::solvers::airfoil
