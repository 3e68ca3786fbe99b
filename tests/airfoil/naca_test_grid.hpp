#pragma once
// The small NACA 0012 O-grid (64 × 32 cells, far field at 20 chords) of the airfoil tests that
// pin or compare whole solver runs; short enough for hundreds of cycles in a unit test. And the
// laminar flow the convergence tests run on it (line-implicit, M 0.5, Re 2000, α 1°).
#include "mesh/airfoil_geometry.hpp"
#include "mesh/airfoil_grid.hpp"
#include "solvers/airfoil/airfoil_parameters.hpp"
#include "tests/airfoil/lusgs_test_parameters.hpp"

namespace surrox::solvers::airfoil::testing {

inline mesh::CurvilinearGrid naca0012_grid(double first_cell) {
  mesh::AirfoilGridOptions options;
  options.cells_around = 64;
  options.cells_normal = 32;
  options.first_cell_height = first_cell;
  options.farfield_radius = 20;
  return mesh::build_airfoil_grid(mesh::naca_airfoil("0012"), options);
}

inline AirfoilParameters laminar_naca0012_parameters() {
  AirfoilParameters p = lusgs_test_parameters();
  p.equations = Equations::kNavierStokes;
  p.mach = 0.5;
  p.alpha_deg = 1;
  p.reynolds = 2000;
  p.limiter = Limiter::kNone;
  p.cfl = 1000;
  p.cfl_ramp = 10;
  p.max_iterations = 3000;
  p.smoother = "line_implicit";
  p.multigrid_wall = MultigridWall::kMirror;
  return p;
}

}  // namespace surrox::solvers::airfoil::testing
