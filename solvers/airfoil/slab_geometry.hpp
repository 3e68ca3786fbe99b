#pragma once
// The geometry one rank's slab of a grid level needs, on the device, and the chord line of the
// whole airfoil. Every rank computes the metrics of the whole grid (milliseconds) and keeps its
// slab, so the ghost centroids and face areas at a slab edge are exactly the neighbour's.
#include "mesh/curvilinear_grid.hpp"
#include "solvers/airfoil/slab.hpp"
#include "solvers/airfoil/views.hpp"

namespace surrox::solvers::airfoil {

// The chord line: trailing edge = wall node 0 (the O-grid convention), leading edge = the wall
// node farthest from it; the moment reference is the quarter chord.
struct ChordLine {
  long i_le = 0;  // first wall face of the upper surface
  double x_le = 0, y_le = 0;
  double chord = 1;
  double x_ref = 0.25, y_ref = 0;
  double dx = 1, dy = 0;  // unit vector from the leading to the trailing edge
};
ChordLine chord_line_of(const mesh::CurvilinearGrid& grid);

// Device arrays of the slab (nl rows, row index local), cut from the metrics of the whole grid.
struct SlabGeometry {
  SlabGeometry() = default;
  SlabGeometry(const mesh::GridMetrics& m, const mesh::CurvilinearGrid& grid, const Slab& slab);

  Array2 area, wall_distance;  // (nl, ni)
  // Centroids with one ghost row each end, (nl + 2, ni), row j + 1; beyond the wall and the far
  // field the interior centroids reflected through the boundary face midpoints.
  Array2 xc, yc;
  Array2 xn, yn;    // nodes (nl + 1, ni + 1)
  Array2 sxi, syi;  // i-face normals scaled by the face length (nl, ni + 1)
  Array2 sxj, syj;  // j-face normals (nl + 1, ni)
  Array2 vol_j;     // mean area of the two cells of each j-face (nl + 1, ni)
};

}  // namespace surrox::solvers::airfoil
