#pragma once
// A 2D body-fitted structured grid (airfoil O-grid) and its finite-volume metrics. This is the
// contract between grid generation (mesh/airfoil_*), the airfoil solver and the datasets the
// surrogates train on: the metrics (cell areas, wall distance) are surrogate inputs and loss
// weights, so they are computed once, here, and written with every dataset.
//
// Index conventions (all arrays host Views, LayoutRight, first index i):
// - Nodes (i, j), 0 ≤ i ≤ ni, 0 ≤ j ≤ nj. j = 0 is the airfoil surface, j = nj the far field.
// - O-grid: i runs from the trailing edge along the lower surface to the leading edge and back
//   along the upper surface, so (i, j) is right-handed and cell areas are positive. The grid is
//   periodic in i: node ni coincides with node 0 (both are stored).
// - Cell (i, j) has corners (i, j), (i+1, j), (i+1, j+1), (i, j+1); ni × nj cells.
#include <Kokkos_Core.hpp>

namespace surrox::mesh {

using HostMatrix = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;

// kOGrid: periodic in i (node ni is node 0). kRectangle: i = 0 and i = ni are open boundaries
// (inflow, outflow), j = 0 is a symmetry plane up to face wall_begin and a wall from there on,
// j = nj a far field: TMR's zero-pressure-gradient flat plate (mesh/flat_plate_grid.hpp).
enum class GridTopology { kOGrid, kRectangle };

struct CurvilinearGrid {
  GridTopology topology = GridTopology::kOGrid;
  HostMatrix x, y;  // node coordinates, (ni + 1) × (nj + 1)
  // The first j = 0 face of the wall: faces before it are a symmetry plane, and the wall
  // distance is measured to the faces from it on (0 for an O-grid: all wall).
  long wall_begin = 0;

  long cells_i() const { return static_cast<long>(x.extent(0)) - 1; }
  long cells_j() const { return static_cast<long>(x.extent(1)) - 1; }
};

struct GridMetrics {
  HostMatrix area;    // cell areas, ni × nj (positive on a valid grid)
  HostMatrix xc, yc;  // cell centroids, ni × nj
  // Face normals scaled by the face length.
  // i-faces: face (i, j) joins nodes (i, j)–(i, j+1), separates cells (i−1, j) and (i, j) and
  // points toward +i; (ni + 1) × nj. j-faces: face (i, j) joins nodes (i, j)–(i+1, j), separates
  // cells (i, j−1) and (i, j) and points toward +j; ni × (nj + 1). On the wall (j = 0) the j-face
  // normal points into the flow.
  HostMatrix sx_i, sy_i;
  HostMatrix sx_j, sy_j;
  // Distance from each cell centroid to the wall part of the polyline j = 0, ni × nj.
  HostMatrix wall_distance;
};

// Areas, centroids, face normals and wall distance. Throws InputError naming the worst cell when
// any cell area is not positive (a folded or left-handed grid).
GridMetrics compute_metrics(const CurvilinearGrid& grid);

}  // namespace surrox::mesh
