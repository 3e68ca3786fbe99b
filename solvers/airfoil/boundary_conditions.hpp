#pragma once
// Boundary conditions of the airfoil solver as ghost rows of the primitive state W: the wall
// (j = 0) mirrors the first two interior rows (slip: reflected normal velocity; no-slip:
// reversed velocity; ρ and p copied, so the wall is adiabatic); the far field (j = nj) holds
// the characteristic state of the Riemann invariants, with the free stream optionally
// corrected by the compressible point vortex of the current lift. Pointwise states here, the
// kernel that fills the ghost rows of a level in fill_boundary_rows().
#include <Kokkos_Core.hpp>
#include <cmath>

#include "solvers/airfoil/flux.hpp"

namespace surrox::solvers::airfoil {

struct FlowLevel;

// Characteristic far-field state from the interior state wi, the free stream wf and the unit
// normal (nx, ny) pointing out of the domain: Riemann invariants u_n ± 2c/(γ−1), entropy and
// tangential velocity from the side the flow comes from (subsonic normal flow).
KOKKOS_INLINE_FUNCTION State far_field_state(const State& wi, const State& wf, double nx,
                                             double ny) {
  const double g1 = kGamma - 1;
  const double ci = sqrt(kGamma * wi[3] / wi[0]), cf = sqrt(kGamma * wf[3] / wf[0]);
  const double vni = wi[1] * nx + wi[2] * ny, vnf = wf[1] * nx + wf[2] * ny;
  const double rp = vni + 2 * ci / g1, rm = vnf - 2 * cf / g1;
  const double vn = 0.5 * (rp + rm), c = 0.25 * g1 * (rp - rm);
  const State& src = vn > 0 ? wi : wf;
  const double vns = vn > 0 ? vni : vnf;
  const double s = src[3] / pow(src[0], kGamma);
  const double rho = pow(c * c / (kGamma * s), 1 / g1);
  return {{rho, src[1] + (vn - vns) * nx, src[2] + (vn - vns) * ny, rho * c * c / kGamma}};
}

// The free stream at (x, y), optionally with the compressible point vortex of circulation
// gamma_c at the reference point (Thomas & Salas 1986); isentropic with the free stream.
KOKKOS_INLINE_FUNCTION State freestream_at(double x, double y, double x_ref, double y_ref,
                                           double alpha, double mach, double p_inf,
                                           double circulation) {
  double u = cos(alpha), v = sin(alpha);
  if (circulation != 0) {
    const double dx = x - x_ref, dy = y - y_ref;
    const double r = sqrt(dx * dx + dy * dy), theta = atan2(dy, dx);
    const double beta = sqrt(1 - mach * mach);
    const double s = sin(theta - alpha);
    const double f = circulation * beta / (2 * M_PI * r * (1 - mach * mach * s * s));
    u += f * sin(theta);
    v -= f * cos(theta);
  }
  const double t = 1 + 0.5 * (kGamma - 1) * mach * mach * (1 - u * u - v * v);
  const double p = p_inf * pow(t, kGamma / (kGamma - 1));
  const double rho = pow(t, 1 / (kGamma - 1));
  return {{rho, u, v, p}};
}

// The ghost of interior state wi across a wall with unit normal (nx, ny): ρ and p copied
// (adiabatic), the velocity reversed (no-slip) or its normal part reflected (slip).
KOKKOS_INLINE_FUNCTION State wall_ghost_state(const State& wi, double nx, double ny, bool no_slip) {
  State g = wi;
  if (no_slip) {
    g[1] = -wi[1];
    g[2] = -wi[2];
  } else {
    const double vn = wi[1] * nx + wi[2] * ny;
    g[1] = wi[1] - 2 * vn * nx;
    g[2] = wi[2] - 2 * vn * ny;
  }
  return g;
}

// Fills the ghost rows of level.w at the physical ends of the slab: the wall (or inner far
// field) on the first rank, the far field on the last. The ghost rows between slabs come from
// the halo exchange.
void fill_boundary_rows(FlowLevel& level);

}  // namespace surrox::solvers::airfoil
