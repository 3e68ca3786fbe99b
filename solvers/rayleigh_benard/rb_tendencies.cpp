// The right-hand sides of the momentum and buoyancy equations (RayleighBenardSolver::compute_rhs).
#include "solvers/rayleigh_benard/rb_solver.hpp"

namespace surrox::solvers::rayleigh_benard {

template <int dim>
void RayleighBenardSolver<dim>::compute_rhs() {
  // Finite volumes: u's is hx × hy × dz_k around its x-face, v's the same around its y-face,
  // w's hx × hy × dzc_k around its z-face, b's the cell. Advected values are arithmetic means and
  // mass fluxes exact sums over the control-volume faces, so advection stays skew-symmetric
  // (energy-conserving) on a stretched grid; diffusion is the flux difference of centred
  // gradients over the control volume.
  const Field3 u = u_, v = v_, w = w_, b = b_, ru = ru_, rv = rv_, rw = rw_, rb = rb_;
  const Metric dz = dz_, dzc = dzc_, zc = zc_;
  const double ihx = 1 / hx_, ihx2 = ihx * ihx, ihy = 1 / hy_, ihy2 = ihy * ihy;
  const double nu = nu_, kappa = kappa_;
  const long zs = zs_, oz = oz_;
  for_each_cell<dim>(
      "RayleighBenardSolver::rhs", owned_, KOKKOS_LAMBDA(long k, long j, long i) {
        const double idz = 1 / dz(k), idzc_b = 1 / dzc(k), idzc_t = 1 / dzc(k + 1);
        // The Laplacian at a cell-centre height (u, v, b): z fluxes through faces k and k + 1.
        const auto laplacian = [&](const Field3& f) {
          double lap = (f(k, j, i + 1) - 2 * f(k, j, i) + f(k, j, i - 1)) * ihx2;
          if constexpr (dim == 3) lap += (f(k, j + 1, i) - 2 * f(k, j, i) + f(k, j - 1, i)) * ihy2;
          lap += ((f(k + 1, j, i) - f(k, j, i)) * idzc_t - (f(k, j, i) - f(k - 1, j, i)) * idzc_b) *
                 idz;
          return lap;
        };
        // u on its x-face.
        {
          const double fe = 0.25 * (u(k, j, i) + u(k, j, i + 1)) * (u(k, j, i) + u(k, j, i + 1));
          const double fw = 0.25 * (u(k, j, i - 1) + u(k, j, i)) * (u(k, j, i - 1) + u(k, j, i));
          const double gt =
              0.25 * (w(k + 1, j, i - 1) + w(k + 1, j, i)) * (u(k, j, i) + u(k + 1, j, i));
          const double gb = 0.25 * (w(k, j, i - 1) + w(k, j, i)) * (u(k - 1, j, i) + u(k, j, i));
          double r = -(fe - fw) * ihx;
          if constexpr (dim == 3) {
            const double gn =
                0.25 * (v(k, j + 1, i - 1) + v(k, j + 1, i)) * (u(k, j, i) + u(k, j + 1, i));
            const double gs = 0.25 * (v(k, j, i - 1) + v(k, j, i)) * (u(k, j - 1, i) + u(k, j, i));
            r -= (gn - gs) * ihy;
          }
          r -= (gt - gb) * idz;
          ru(k, j, i) = r + nu * laplacian(u);
        }
        // v on its y-face (3D).
        if constexpr (dim == 3) {
          const double fn = 0.25 * (v(k, j, i) + v(k, j + 1, i)) * (v(k, j, i) + v(k, j + 1, i));
          const double fs = 0.25 * (v(k, j - 1, i) + v(k, j, i)) * (v(k, j - 1, i) + v(k, j, i));
          const double ge =
              0.25 * (u(k, j - 1, i + 1) + u(k, j, i + 1)) * (v(k, j, i) + v(k, j, i + 1));
          const double gw = 0.25 * (u(k, j - 1, i) + u(k, j, i)) * (v(k, j, i - 1) + v(k, j, i));
          const double gt =
              0.25 * (w(k + 1, j - 1, i) + w(k + 1, j, i)) * (v(k, j, i) + v(k + 1, j, i));
          const double gb = 0.25 * (w(k, j - 1, i) + w(k, j, i)) * (v(k - 1, j, i) + v(k, j, i));
          rv(k, j, i) = -(ge - gw) * ihx - (fn - fs) * ihy - (gt - gb) * idz + nu * laplacian(v);
        }
        // w on its z-face (k = 0 is the wall); its volume is dzc_k high.
        if (zs + (k - oz) > 0) {
          // Horizontal velocity through the side faces of w's volume: the dz-weighted mean of
          // the two halves.
          const double lo = 0.5 * dz(k - 1) * idzc_b, hi = 0.5 * dz(k) * idzc_b;
          const double he =
              0.5 * (lo * u(k - 1, j, i + 1) + hi * u(k, j, i + 1)) * (w(k, j, i) + w(k, j, i + 1));
          const double hw =
              0.5 * (lo * u(k - 1, j, i) + hi * u(k, j, i)) * (w(k, j, i - 1) + w(k, j, i));
          const double ft = 0.25 * (w(k, j, i) + w(k + 1, j, i)) * (w(k, j, i) + w(k + 1, j, i));
          const double fb = 0.25 * (w(k - 1, j, i) + w(k, j, i)) * (w(k - 1, j, i) + w(k, j, i));
          double lap = (w(k, j, i + 1) - 2 * w(k, j, i) + w(k, j, i - 1)) * ihx2;
          if constexpr (dim == 3) lap += (w(k, j + 1, i) - 2 * w(k, j, i) + w(k, j - 1, i)) * ihy2;
          lap +=
              ((w(k + 1, j, i) - w(k, j, i)) / dz(k) - (w(k, j, i) - w(k - 1, j, i)) / dz(k - 1)) *
              idzc_b;
          double r = -(he - hw) * ihx;
          if constexpr (dim == 3) {
            const double hn = 0.5 * (lo * v(k - 1, j + 1, i) + hi * v(k, j + 1, i)) *
                              (w(k, j, i) + w(k, j + 1, i));
            const double hs =
                0.5 * (lo * v(k - 1, j, i) + hi * v(k, j, i)) * (w(k, j - 1, i) + w(k, j, i));
            r -= (hn - hs) * ihy;
          }
          r -= (ft - fb) * idzc_b;
          // Buoyancy less the conductive profile ½ − z interpolated the same way: that part is a
          // discrete gradient that the projection would remove anyway, and leaving it out keeps
          // the Poisson residual (hence ∇·u) small relative to the velocity even while the
          // flow is still weak.
          const double conductive = 0.5 - 0.5 * (zc(k - 1) + zc(k));
          rw(k, j, i) = r + nu * lap + 0.5 * (b(k - 1, j, i) + b(k, j, i)) - conductive;
        } else {
          rw(k, j, i) = 0;
        }
        // b at the cell centre; the wall faces carry no advective flux (w = 0 there).
        {
          const double fe = u(k, j, i + 1) * 0.5 * (b(k, j, i) + b(k, j, i + 1));
          const double fw = u(k, j, i) * 0.5 * (b(k, j, i - 1) + b(k, j, i));
          const double ft = w(k + 1, j, i) * 0.5 * (b(k, j, i) + b(k + 1, j, i));
          const double fb = w(k, j, i) * 0.5 * (b(k - 1, j, i) + b(k, j, i));
          double r = -(fe - fw) * ihx;
          if constexpr (dim == 3) {
            const double fn = v(k, j + 1, i) * 0.5 * (b(k, j, i) + b(k, j + 1, i));
            const double fs = v(k, j, i) * 0.5 * (b(k, j - 1, i) + b(k, j, i));
            r -= (fn - fs) * ihy;
          }
          r -= (ft - fb) * idz;
          rb(k, j, i) = r + kappa * laplacian(b);
        }
      });
}

template void RayleighBenardSolver<2>::compute_rhs();
template void RayleighBenardSolver<3>::compute_rhs();

}  // namespace surrox::solvers::rayleigh_benard
