#pragma once
// The residual of one level: R = Σ_faces (F − F_v)·S over each cell (+ the FAS forcing on
// coarse levels), its global L2 norms and the wall force sums. The driver is generic; the
// equations enter through the boundary rows (boundary_conditions.hpp) and the face fluxes
// (face_fluxes.hpp).
namespace surrox::solvers::airfoil {

struct FlowLevel;

// Fills the ghost rows (boundaries, then the halo between slabs), the face fluxes and spectral
// radii, level.res, level.absolute_residual and level.wall_force. `with_forcing`: add
// level.forcing where the level has one. Collective.
void evaluate_residual(FlowLevel& level, bool with_forcing = true);

}  // namespace surrox::solvers::airfoil
