#pragma once
// FAS multigrid over a stack of levels (index 0 the finest): Jameson's sawtooth cycle, one
// smoothing per level on the way down and none on the way up; with multigrid_gamma 2 every
// coarse level smooths and corrects twice (a W-cycle). Coarse levels take every other
// node and first-order fluxes; U_c⁰ is the volume average of the four children and the forcing
// P = Σ R_f − R_c(U_c⁰), so the coarse problem R_c(U_c) + P = 0 starts from the restricted fine
// residual; the correction U_c − U_c⁰ returns by bilinear interpolation between coarse cell
// centres (periodic in i; its ghost row at a slab edge from the neighbour rank, at the wall the
// first coarse cell's mirrored like the state's ghost with solver.multigrid_wall mirror, else
// the cell's own; at the far field the cell's own), skipped in any
// cell where it would make ρ or p non-positive. Each rank restricts and prolongs its own slab:
// the coarse slab is the fine one's rows halved.
#include <vector>

#include "mesh/curvilinear_grid.hpp"
#include "solvers/airfoil/flow_level.hpp"

namespace surrox::solvers::airfoil {

// Appends `count` coarser levels to `levels` (which holds the finest, built on `grid`).
void add_coarse_levels(std::vector<FlowLevel>& levels, const mesh::CurvilinearGrid& grid,
                       int count);

// The coarse-grid correction of levels[l] by all coarser levels, after levels[l] was smoothed;
// a no-op on the coarsest. `iteration` and `residual` only go into divergence messages.
void coarse_grid_correction(std::vector<FlowLevel>& levels, std::size_t l, double cfl,
                            long iteration, double residual);

}  // namespace surrox::solvers::airfoil
