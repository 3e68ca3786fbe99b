#pragma once
// The small NACA 0012 O-grid (64 × 32 cells, far field at 20 chords) of the airfoil tests that
// pin or compare whole solver runs; short enough for hundreds of cycles in a unit test.
#include "mesh/airfoil_geometry.hpp"
#include "mesh/airfoil_grid.hpp"

namespace surrox::solvers::airfoil::testing {

inline mesh::CurvilinearGrid naca0012_grid(double first_cell) {
  mesh::AirfoilGridOptions options;
  options.cells_around = 64;
  options.cells_normal = 32;
  options.first_cell_height = first_cell;
  options.farfield_radius = 20;
  return mesh::build_airfoil_grid(mesh::naca_airfoil("0012"), options);
}

}  // namespace surrox::solvers::airfoil::testing
