#pragma once
// The face fluxes of the Euler and laminar Navier–Stokes equations on one level's slab, as one
// tagged functor over the grid (flux.hpp holds the pointwise physics it calls):
// - inviscid: Roe with Harten's entropy fix on MUSCL states of the primitive variables along
//   grid lines (first order where the reconstruction would leave ρ, p > 0, and on coarse
//   multigrid levels); at a slip wall the first cell takes one-sided slopes (below);
// - viscous: Green–Gauss face gradients on the diamond (L centroid, node A, R centroid, node B);
//   node values are averages of the four surrounding cells, ghosts included, so no-slip wall
//   nodes get u = 0 exactly;
// - per face also ½λ (convective spectral radius of the mean state) and the viscous spectral
//   radius, which the local time steps and the implicit smoother use.
// RANS adds the eddy viscosity of the face's mean ν̃ and Sutherland's law to the viscous flux.
// Face (i, j) of the i-faces lies between cells (i − 1, j) and (i, j), periodic in i on an
// O-grid; on a rectangle (flat plate) the faces i = 0 and i = ni are open boundaries with the
// characteristic far-field state outside and no viscous flux (thin-layer at in- and outflow);
// j-face (i, j) between cells (i, j − 1) and (i, j), j local to the slab (global j0 + j): global j
// = 0 is the wall, j = nj the far field. A face between two slabs is computed by both ranks from
// the same states, so both get the same flux.
#include <algorithm>

#include "solvers/airfoil/boundary_conditions.hpp"
#include "solvers/airfoil/flow_level.hpp"
#include "solvers/airfoil/flux.hpp"
#include "solvers/airfoil/spalart_allmaras.hpp"
#include "solvers/airfoil/views.hpp"

namespace surrox::solvers::airfoil {

struct FaceFluxes {
  struct NodeValues {};
  struct IFaces {};
  struct JFaces {};

  explicit FaceFluxes(const FlowLevel& level)
      : w(level.w),
        fi(level.flux_i),
        fj(level.flux_j),
        nu_tilde(level.nu_tilde),
        geometry(level.geometry),
        lam_i(level.lambda_i),
        lam_j(level.lambda_j),
        lv_i(level.lambda_viscous_i),
        lv_j(level.lambda_viscous_j),
        nu(level.node_u),
        nv(level.node_v),
        nt(level.node_theta),
        wvx(level.wall_viscous_x),
        wvy(level.wall_viscous_y),
        ni(level.ni()),
        j0(level.slab.first_row()),
        limiter(level.parameters.limiter),
        fix(level.parameters.entropy_fix),
        lfix(level.parameters.linear_fix),
        eps(level.parameters.limiter_epsilon),
        mu(level.mu),
        visc_factor(std::max(4.0 / 3.0, kGamma / kPrandtl) * level.mu),
        theta_inf(level.p_inf),
        s_ratio(level.sutherland_ratio),
        alpha(level.alpha),
        mach(level.parameters.mach),
        viscous(level.viscous),
        turbulent(level.turbulent),
        periodic(level.periodic),
        adiabatic(level.parameters.inner == InnerBoundary::kWall),
        slip_wall(adiabatic && !viscous && limiter != Limiter::kFirstOrder) {}

  // Node (i, j): mean of cells (i−1, j−1), (i, j−1), (i−1, j), (i, j), ghosts included.
  KOKKOS_INLINE_FUNCTION void operator()(NodeValues, long j, long i) const {
    const long im = periodic ? wrap(i - 1, ni) : (i > 0 ? i - 1 : 0);
    const long ic = periodic || i < ni ? i : ni - 1;
    double s[3] = {0, 0, 0};
    for (long r = j + 1; r <= j + 2; ++r)
      for (int side = 0; side < 2; ++side) {
        const long c = side == 0 ? im : ic;
        s[0] += w(1, r, c);
        s[1] += w(2, r, c);
        s[2] += w(3, r, c) / w(0, r, c);
      }
    nu(j, i) = 0.25 * s[0];
    nv(j, i) = 0.25 * s[1];
    nt(j, i) = 0.25 * s[2];
  }

  KOKKOS_INLINE_FUNCTION void operator()(IFaces, long j, long i) const {
    if (!periodic && (i == 0 || i == ni)) return open_face(j, i);
    const long r = j + 2, il = wrap(i - 1, ni);
    const long ill = periodic ? wrap(i - 2, ni) : (i > 1 ? i - 2 : 0);
    const long irr = periodic ? wrap(i + 1, ni) : (i + 1 < ni ? i + 1 : ni - 1);
    const double sx = geometry.sxi(j, i), sy = geometry.syi(j, i);
    State wl, wr;
    reconstruct(r, ill, r, il, r, i, r, irr, wl, wr);
    State f = roe_flux(wl, wr, sx, sy, fix, lfix);
    State wm;
    for (int k = 0; k < 4; ++k) wm[k] = 0.5 * (w(k, r, il) + w(k, r, i));
    lam_i(j, i) = 0.5 * spectral_radius(wm, sx, sy);
    if (viscous) {
      double mu_face = mu;
      const State fv = face_viscous(r, il, r, i, j, i, j + 1, i, sx, sy, false, mu_face);
      for (int k = 0; k < 4; ++k) f[k] -= fv[k];
      lv_i(j, i) = (turbulent ? kViscousFactor * mu_face : visc_factor) / wm[0] *
                   (sx * sx + sy * sy) / (0.5 * (geometry.area(j, il) + geometry.area(j, i)));
    } else {
      lv_i(j, i) = 0;
    }
    for (int k = 0; k < 4; ++k) fi(k, j, i) = f[k];
  }

  KOKKOS_INLINE_FUNCTION void operator()(JFaces, long j, long i) const {
    const long rl = j + 1, rr = j + 2, jg = j0 + j;
    const double sx = geometry.sxj(j, i), sy = geometry.syj(j, i);
    State wl, wr;
    reconstruct(rl - 1, i, rl, i, rr, i, rr + 1, i, wl, wr);
    if (slip_wall && jg <= 1) slip_wall_states(jg, i, sx, sy, wl, wr);
    State f = roe_flux(wl, wr, sx, sy, fix, lfix);
    State wm;
    for (int k = 0; k < 4; ++k) wm[k] = 0.5 * (w(k, rl, i) + w(k, rr, i));
    lam_j(j, i) = 0.5 * spectral_radius(wm, sx, sy);
    if (viscous) {
      double mu_face = mu;
      const State fv =
          face_viscous(rl, i, rr, i, j, i + 1, j, i, sx, sy, adiabatic && jg == 0, mu_face);
      for (int k = 0; k < 4; ++k) f[k] -= fv[k];
      lv_j(j, i) = (turbulent ? kViscousFactor * mu_face : visc_factor) / wm[0] *
                   (sx * sx + sy * sy) / geometry.vol_j(j, i);
      if (jg == 0) wvx(0, i) = fv[1], wvy(0, i) = fv[2];
    } else {
      lv_j(j, i) = 0;
      if (jg == 0) wvx(0, i) = 0, wvy(0, i) = 0;
    }
    for (int k = 0; k < 4; ++k) fj(k, j, i) = f[k];
  }

  // An open end of a rectangle, face i = 0 or ni: Roe's flux between the end cell and the
  // characteristic far-field state of the uniform free stream outside it.
  KOKKOS_INLINE_FUNCTION void open_face(long j, long i) const {
    const long r = j + 2, c = i == 0 ? 0 : ni - 1;
    const double sx = geometry.sxi(j, i), sy = geometry.syi(j, i), s = sqrt(sx * sx + sy * sy);
    const double out = i == 0 ? -1.0 : 1.0;  // the outward normal is out · S
    const State wc{{w(0, r, c), w(1, r, c), w(2, r, c), w(3, r, c)}};
    const State wf = freestream_at(0, 0, 0, 0, alpha, mach, theta_inf, 0.0);
    const State wg = far_field_state(wc, wf, out * sx / s, out * sy / s);
    const State f =
        i == 0 ? roe_flux(wg, wc, sx, sy, fix, lfix) : roe_flux(wc, wg, sx, sy, fix, lfix);
    State wm;
    for (int k = 0; k < 4; ++k) wm[k] = 0.5 * (wc[k] + wg[k]);
    lam_i(j, i) = 0.5 * spectral_radius(wm, sx, sy);
    lv_i(j, i) =
        viscous ? kViscousFactor * mu / wc[0] * (sx * sx + sy * sy) / geometry.area(j, c) : 0.0;
    for (int k = 0; k < 4; ++k) fi(k, j, i) = f[k];
  }

  // MUSCL states at a face from the four cells ll, l | r, rr along a grid line (rows and
  // columns of w); first order where the reconstruction would leave the admissible states.
  KOKKOS_INLINE_FUNCTION void reconstruct(long rll, long cll, long rl, long cl, long rr, long cr,
                                          long rrr, long crr, State& wl, State& wr) const {
    bool ok = true;
    for (int k = 0; k < 4; ++k) {
      const double a = w(k, rll, cll), b = w(k, rl, cl), c = w(k, rr, cr), d = w(k, rrr, crr);
      wl[k] = b + 0.5 * limited_slope(limiter, b - a, c - b, eps);
      wr[k] = c - 0.5 * limited_slope(limiter, c - b, d - c, eps);
    }
    if (limiter == Limiter::kFirstOrder) ok = false;
    if (!(wl[0] > 0 && wl[3] > 0)) ok = false;
    if (!(wr[0] > 0 && wr[3] > 0)) ok = false;
    if (!ok)
      for (int k = 0; k < 4; ++k) wl[k] = w(k, rl, cl), wr[k] = w(k, rr, cr);
  }

  // The faces j = 0, 1 of a slip wall: the mirror ghosts fix ∂/∂n = 0 at the wall, which is
  // wrong for the tangential velocity and the pressure of a curved inviscid wall, so the first
  // cell takes the one-sided slope of cells 0 and 1, and the ghost side is the mirror of the
  // wall state.
  KOKKOS_INLINE_FUNCTION void slip_wall_states(long jg, long i, double sx, double sy, State& wl,
                                               State& wr) const {
    State w0, w1;
    for (int k = 0; k < 4; ++k) w0[k] = w(k, 2, i), w1[k] = w(k, 3, i);
    State e;
    for (int k = 0; k < 4; ++k) e[k] = jg == 0 ? 1.5 * w0[k] - 0.5 * w1[k] : 0.5 * (w0[k] + w1[k]);
    if (!(e[0] > 0 && e[3] > 0)) e = w0;
    if (jg == 0) {
      const double s = sqrt(sx * sx + sy * sy), nx = sx / s, ny = sy / s;
      const double vn = e[1] * nx + e[2] * ny;
      wr = e;
      wl = e;
      wl[1] = e[1] - 2 * vn * nx;
      wl[2] = e[2] - 2 * vn * ny;
    } else {
      wl = e;
    }
  }

  // The viscous flux through a face between cells (rows rl, rr of w; columns cl, cr) with
  // diamond corners L centroid, node A, R centroid, node B.
  // RANS: μ from Sutherland's law at the face's mean θ, plus the eddy viscosity of the face's
  // mean ν̃ (0 on a wall, whose ghost holds −ν̃), returned in mu_face.
  KOKKOS_INLINE_FUNCTION State face_viscous(long rl, long cl, long rr, long cr, long ja, long ia,
                                            long jb, long ib, double sx, double sy, bool wall_face,
                                            double& mu_face) const {
    const double x[4] = {geometry.xc(rl - 1, cl), geometry.xn(ja, ia), geometry.xc(rr - 1, cr),
                         geometry.xn(jb, ib)};
    const double y[4] = {geometry.yc(rl - 1, cl), geometry.yn(ja, ia), geometry.yc(rr - 1, cr),
                         geometry.yn(jb, ib)};
    const long na = periodic ? wrap(ia, ni) : ia, nb = periodic ? wrap(ib, ni) : ib;
    FaceGradient g;
    {
      const double phi[4] = {w(1, rl, cl), nu(ja, na), w(1, rr, cr), nu(jb, nb)};
      diamond_gradient(x, y, phi, g.ux, g.uy);
    }
    {
      const double phi[4] = {w(2, rl, cl), nv(ja, na), w(2, rr, cr), nv(jb, nb)};
      diamond_gradient(x, y, phi, g.vx, g.vy);
    }
    {
      const double phi[4] = {w(3, rl, cl) / w(0, rl, cl), nt(ja, na), w(3, rr, cr) / w(0, rr, cr),
                             nt(jb, nb)};
      diamond_gradient(x, y, phi, g.tx, g.ty);
    }
    const double uf = 0.5 * (w(1, rl, cl) + w(1, rr, cr)), vf = 0.5 * (w(2, rl, cl) + w(2, rr, cr));
    if (!turbulent) return viscous_flux(g, uf, vf, mu, sx, sy, wall_face);
    const double rho_f = 0.5 * (w(0, rl, cl) + w(0, rr, cr));
    const double theta_f = 0.5 * (w(3, rl, cl) / w(0, rl, cl) + w(3, rr, cr) / w(0, rr, cr));
    const double mu_l = mu * sa::sutherland(theta_f / theta_inf, s_ratio);
    const double mu_t =
        sa::eddy_viscosity(rho_f, 0.5 * (nu_tilde(0, rl, cl) + nu_tilde(0, rr, cr)), mu_l / rho_f);
    const double k =
        wall_face ? 0.0 : kGamma / (kGamma - 1) * (mu_l / kPrandtl + mu_t / sa::kPrandtlTurbulent);
    mu_face = mu_l + mu_t;
    return viscous_flux_conducting(g, uf, vf, mu_face, k, sx, sy);
  }

  // max(4/3, γ/Pr) of the viscous spectral radius (Pr_t > Pr: the eddy part is covered).
  static constexpr double kViscousFactor =
      kGamma / kPrandtl > 4.0 / 3.0 ? kGamma / kPrandtl : 4.0 / 3.0;

  Array3 w, fi, fj, nu_tilde;
  SlabGeometry geometry;
  Array2 lam_i, lam_j, lv_i, lv_j, nu, nv, nt, wvx, wvy;
  long ni, j0;
  Limiter limiter;
  double fix, lfix, eps, mu, visc_factor, theta_inf, s_ratio, alpha, mach;
  bool viscous, turbulent, periodic, adiabatic, slip_wall;
};

}  // namespace surrox::solvers::airfoil
