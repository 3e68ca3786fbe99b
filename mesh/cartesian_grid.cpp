#include "mesh/cartesian_grid.hpp"

namespace surrox::mesh {

Schema CartesianGrid::schema() {
  Schema s("A uniform Cartesian grid; points include the boundary.");
  s.integers("points", "points per direction, [nx, ny] or [nx, ny, nz]")
      .at_least(3)
      .fallback("[33, 33]");
  s.reals("length", "domain size per direction, [Lx, Ly] or [Lx, Ly, Lz]")
      .above(0)
      .units("m")
      .fallback("[1.0, 1.0]");
  return s;
}

CartesianGrid CartesianGrid::from_case(const CaseNode& node) {
  const auto points = node.integers("points");
  const auto length = node.reals("length");
  if (points.size() < 2 || points.size() > 3) node.fail("points", "expected 2 or 3 entries");
  if (length.size() != points.size())
    node.fail("length",
              "needs as many entries as 'points' (" + std::to_string(points.size()) + ")");
  CartesianGrid grid;
  for (std::size_t axis = 0; axis < points.size(); ++axis) {
    grid.points[axis] = points[axis];
    grid.length[axis] = length[axis];
  }
  if (grid.count() > 2'000'000'000L) node.fail("points", "more than 2e9 grid points");
  return grid;
}

}  // namespace surrox::mesh
