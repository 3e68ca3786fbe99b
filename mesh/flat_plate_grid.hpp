#pragma once
// The rectangular grid of NASA TMR's 2D zero-pressure-gradient flat plate
// (turbmodels.larc.nasa.gov/flatplate.html): x from −0.33 to 2 (the plate starts at x = 0 and
// runs to the outflow), y from 0 to 1; a symmetry plane on y = 0 ahead of the plate. Cells
// cluster geometrically at the leading edge in x (both ways) and at the wall in y.
#include "core/case_node.hpp"
#include "core/schema.hpp"
#include "mesh/curvilinear_grid.hpp"

namespace surrox::mesh {

struct FlatPlateGridSpec {
  long cells_upstream = 16;  // x in [x_inflow, 0], the symmetry plane
  long cells_plate = 48;     // x in [0, x_outflow], the wall
  long cells_normal = 48;    // y in [0, height]
  double x_inflow = -0.33, x_outflow = 2.0, height = 1.0;
  double leading_edge_spacing = 2e-3;  // Δx of the cells either side of x = 0
  double wall_spacing = 5e-6;          // Δy of the wall row (y⁺ ≈ 1 at Re_x = 5e6)
};

// A kRectangle grid with wall_begin = cells_upstream. InputError on non-positive sizes, or
// spacings that do not fit their intervals.
CurvilinearGrid build_flat_plate_grid(const FlatPlateGridSpec& spec);

// The n + 1 nodes 0 = s_0 < … < s_n = length with s_1 = first and a constant growth ratio
// (found by bisection). InputError when first ≥ length / n would need shrinking cells.
std::vector<double> geometric_nodes(double length, long n, double first);

// The `mesh: {type: flat_plate, ...}` case-file section and the spec it gives.
Schema flat_plate_mesh_schema();
FlatPlateGridSpec flat_plate_grid_spec(const CaseNode& mesh_section);
// The grid of a validated section; an InputError names the section.
CurvilinearGrid build_flat_plate_grid(const CaseNode& mesh_section);

}  // namespace surrox::mesh
