#pragma once
// Quality figures of a 2D structured (O-)grid, each with the cell where its extreme lies: what a
// user checks before trusting a solution on the grid, and what summary.json records.
#include <nlohmann/json.hpp>

#include "mesh/curvilinear_grid.hpp"

namespace surrox::mesh {

// An extreme value and where it is: cell (i, j), or wall node (i, 0) for the wall figures.
struct GridExtreme {
  double value = 0;
  long i = 0, j = 0;
};

struct GridQuality {
  long cells = 0;
  long nonpositive_cells = 0;  // cells with area ≤ 0
  GridExtreme min_area;        // smallest cell area (grid units²)
  GridExtreme
      min_normalized_jacobian;  // min over cells and corners of sin(corner angle); 1 for rectangles
  GridExtreme max_skewness;  // equiangle skewness max((θmax − 90°)/90°, (90° − θmin)/90°), 0…1
  GridExtreme max_aspect_ratio;  // longer / shorter mean side length
  GridExtreme max_growth_j;      // max(r, 1/r), r = ratio of heights of cells (i, j+1) and (i, j)
  GridExtreme max_growth_i;      // same for widths of cells (i+1, j) and (i, j), periodic in i
  GridExtreme max_wall_orthogonality_deg;  // angle between the j = const line at the wall node and
                                           // the wall normal (bisector of the two wall segments)
  GridExtreme min_first_cell_height;  // wall-normal height of node (i, 1) above wall node (i, 0)
  GridExtreme max_first_cell_height;
};

// The O-grid is taken as periodic in i (node ni = node 0) for the i growth ratio and the wall
// normals. Never throws for a folded grid: it is reported through nonpositive_cells / min_area.
GridQuality grid_quality(const CurvilinearGrid& grid);

nlohmann::json to_json(const GridQuality& quality);

}  // namespace surrox::mesh
