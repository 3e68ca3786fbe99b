#pragma once
// Forces on the airfoil from the wall fluxes of the last residual. The body force is the
// momentum leaving the fluid through the wall, −(F − F_v)·S summed over the wall faces, split
// into the pressure part −(p_w − p∞) S and the viscous traction F_v·S. The coefficients, the
// surface distributions and the separation point (AirfoilSolver::coefficients, surface,
// separation_point) are defined in surface_forces.cpp.
namespace surrox::solvers::airfoil {

struct FlowLevel;

// Wall rank only: sums[0..4] = pressure force x, y, friction x, y, and the moment of both about
// the quarter chord, from the level's last face fluxes.
void sum_wall_forces(const FlowLevel& level, double* sums);

}  // namespace surrox::solvers::airfoil
