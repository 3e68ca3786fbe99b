#pragma once
// The update limiter: the fraction θ ∈ [0, 1] of a proposed update δU that a cell takes, so that
// its density and pressure change by at most a factor r of their current values in one step
// (|Δρ| ≤ rρ, |Δp| ≤ rp). During the α = 15° RANS start-up the flow separates and reattaches
// in pseudo-time (CL swings between −0.8 and 1.8), and a smoothing step or a coarse-grid
// correction can then take a cell's pressure through zero in one step (docs/validation/rans.md).
// Near convergence every δU is far inside the band and θ = 1: the fixed point is unchanged.
// FUN3D and CFL3D limit their updates the same way.
#include "solvers/airfoil/flux.hpp"

namespace surrox::solvers::airfoil {

// r ≤ 0: no limit. A non-finite δU or a state that is not admissible passes as it is, so that
// the state check names the cell.
KOKKOS_INLINE_FUNCTION double update_fraction(const State& u, const State& du, double r) {
  if (!(r > 0)) return 1;
  const double sum = du[0] + du[1] + du[2] + du[3];
  if (!(sum - sum == 0)) return 1;
  const double rho = u[0], p = to_primitive(u)[3];
  if (!(rho > 0 && p > 0)) return 1;
  double theta = fabs(du[0]) > r * rho ? r * rho / fabs(du[0]) : 1.0;
  // p(θ) is continuous with p(0) = p: halving until it is inside the band ends; 30 halvings
  // is θ ~ 1e-9 of the density's bound.
  for (int n = 0; n < 30; ++n) {
    State t;
    for (int k = 0; k < 4; ++k) t[k] = u[k] + theta * du[k];
    if (t[0] > 0 && fabs(to_primitive(t)[3] - p) <= r * p) return theta;
    theta *= 0.5;
  }
  return 0;
}

}  // namespace surrox::solvers::airfoil
