#pragma once
// A uniform Cartesian grid of nx × ny × nz points spanning [0, Lx] × [0, Ly] × [0, Lz]
// (nz = 1 in 2D). Points include the boundary; spacing is L / (n − 1).
#include <array>

#include "core/case_node.hpp"
#include "core/schema.hpp"

namespace surrox::mesh {

struct CartesianGrid {
  std::array<long, 3> points{2, 2, 1};  // nx, ny, nz
  std::array<double, 3> length{1.0, 1.0, 0.0};

  double spacing(int axis) const {
    return points[axis] > 1 ? length[axis] / static_cast<double>(points[axis] - 1) : 0.0;
  }
  long count() const { return points[0] * points[1] * points[2]; }
  int dimension() const { return points[2] > 1 ? 3 : 2; }

  // Case-file keys: points: [nx, ny] or [nx, ny, nz]; length: [Lx, Ly] or [Lx, Ly, Lz].
  static Schema schema();
  static CartesianGrid from_case(const CaseNode& node);
};

}  // namespace surrox::mesh
