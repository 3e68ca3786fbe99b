#pragma once
// Geometric quantities of a mesh computed by VTK's own filters, for derived training channels
// (coordinates, distance to a wall patch, cell sizes as loss weights). VTK stays private to
// surrox_io_vtk; these take and return surrox's host arrays.
#include <vector>

#include "io/mesh_data.hpp"

namespace surrox::io {

// Coordinates of every point (n_points × 3), also for images (origin + index · spacing).
HostArray point_coordinates(const MeshData& mesh);
// The parametric centre of every cell (n_cells × 3), as vtkCellCenters gives it.
HostArray cell_centers(const MeshData& mesh);
// The size of every cell in its own dimension: volume of 3-D cells, area of 2-D cells, length
// of 1-D cells, 0 for vertices (vtkCellSizeFilter, Verdict). Non-negative.
std::vector<double> cell_sizes(const MeshData& mesh);
// Euclidean distance from each query point (n × 3) to the nearest point on any cell of
// `surface` (a boundary patch, a wall; vtkCellLocator::FindClosestPoint). InputError when
// the surface has no cells.
std::vector<double> distance_to_cells(const MeshData& surface, const HostArray& points);

}  // namespace surrox::io
