#pragma once
// Body-fitted O-grid around an airfoil, by explicit hyperbolic marching from the surface.
//
// Why marching and not an elliptic (Thompson–Thames–Mastin) solve: the two things the airfoil
// solver and the surrogate datasets need from the grid are a prescribed first-cell height at the
// wall (down to 1e-4 chord for Re = 5000) and orthogonal grid lines there. Marching gives both
// by construction (the first layer is the surface offset by exactly that height along the
// surface normals), costs one pass over the grid instead of thousands of elliptic iterations,
// and needs no Sorenson control-function tuning. Its weaknesses are handled explicitly:
// - the first layer is the exact offset along the bisector normals (wall orthogonality ~1e-6°);
//   beyond it, the marching normals are smoothed by a dissipation that scales with the local
//   ratio of step to surface spacing and fades in over the first 5 % of a chord; any layer
//   with a non-convex cell is re-marched with more dissipation;
// - concave regions (cambered lower surfaces), where normal marching focuses the grid lines into
//   a caustic: each new front keeps the previous front's relative arc-length positions, with a
//   weight d / (d + 0.2 c) that is ~0 at the wall;
// - the trailing-edge and leading-edge clustering inherited from the surface: node positions
//   diffuse along each new front (∝ step / (d + 0.1 c)), which fans the lines clustered at the
//   trailing edge around it into the wake, and slide toward uniform arc length by a few chords;
// - an outer boundary that is only nearly circular: the outer layers are scaled radially so the
//   last one is exactly the circle of the far-field radius about mid-chord.
// Trade-offs: the trailing-edge corner cells are fans (skewness 0.91 for a NACA 0012 TE, ~1 for
// the Joukowski cusp: inherent to an O-grid around a sharp TE), and cosine spacing leaves a
// surface growth ratio near 3 next to the LE and TE. The lines clustered at the TE fan out
// around it, leaving the near wake a few cells across on every grid level unless `wake_growth`
// pulls each layer's nodes back towards the TE's grid line (a C-grid's wake cut, in effect):
// turbulent lift depends on it (docs/validation/rans.md).
// Layer distances follow a geometric progression whose ratio is solved so that the first cell
// has the requested height and the last layer reaches the far field.
#include "core/case_node.hpp"
#include "core/schema.hpp"
#include "mesh/airfoil_geometry.hpp"
#include "mesh/curvilinear_grid.hpp"

namespace surrox::mesh {

struct AirfoilGridOptions {
  long cells_around = 256;          // ni: cells around the airfoil (= surface points)
  long cells_normal = 128;          // nj: cells from the wall to the far field
  double first_cell_height = 1e-3;  // wall-normal height of the first cell, in chords
  double farfield_radius = 30;      // outer circle radius about mid-chord, in chords
  SurfaceSpacing spacing = SurfaceSpacing::kCosine;
  double leading_edge_spacing = 0, trailing_edge_spacing = 0;  // kTanh only, in chords
  double smoothing = 1.0;  // scales the marching dissipation (0: pure normal marching)
  // > 1: cells across the TE's grid line grow by this ratio from the TE spacing on every layer
  // (clusters the near wake); 0: off.
  double wake_growth = 0;
};

// What the generator did, for logs and summary.json.
struct AirfoilGridInfo {
  double chord = 0;                   // of the resampled surface, in the shape's units
  double center_x = 0, center_y = 0;  // far-field circle centre: mid-chord of the resampled surface
  double growth_ratio = 0;            // geometric ratio of successive layer distances
  long relaxed_layers = 0;            // layers that needed extra dissipation to stay valid
  ShapeDescriptors shape;             // of the resampled surface: the grid's own wall
};

// The geometric ratio r with first·(r^cells − 1)/(r − 1) = total (r = 1 when first·cells = total).
double geometric_growth_ratio(double first, double total, long cells);

// O-grid around `shape` (resampled to options.cells_around points): node (i, 0) is surface point
// i, (i, nj) lies on the far-field circle; lengths in the shape's units. Throws InputError for
// inconsistent options and when no valid grid could be marched.
CurvilinearGrid build_airfoil_grid(const AirfoilShape& shape, const AirfoilGridOptions& options,
                                   AirfoilGridInfo* info = nullptr);

// The `mesh:` case-file section: {airfoil: {type: naca|selig|joukowski, ...}, cells_around, ...}.
Schema airfoil_mesh_schema();
AirfoilGridOptions airfoil_grid_options(const CaseNode& mesh_section);
CurvilinearGrid build_airfoil_grid(const CaseNode& mesh_section, AirfoilGridInfo* info = nullptr);

}  // namespace surrox::mesh
