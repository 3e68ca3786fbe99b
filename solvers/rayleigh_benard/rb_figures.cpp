// The figures of the state: Nusselt numbers, energy, divergence, and their time averages.
#include <algorithm>
#include <cmath>

#include "solvers/rayleigh_benard/rb_common.hpp"
#include "solvers/rayleigh_benard/rb_solver.hpp"

namespace surrox::solvers::rayleigh_benard {

namespace {

using detail::kFigures;
using Sums = SumN<6>;  // the six figures below

}  // namespace

template <int dim>
Diagnostics RayleighBenardSolver<dim>::instantaneous() const {
  // Every sum is per unit horizontal cell of the integral over the layer: a term at a cell
  // centre, an x- or y-face or a vertical edge carries dz_k, one at an interior z-face or a
  // horizontal edge dzc_k, a wall half-cell dz/2 (the weights that summation by parts of the
  // discrete operators gives).
  const Field3 u = u_, v = v_, w = w_, b = b_;
  const Metric dz = dz_, dzc = dzc_;
  const double ihx = 1 / hx_, ihy = 1 / hy_;
  const long zs = zs_, oz = oz_, nz = nz_;
  Sums sums;
  reduce_cells<dim, Sums>(
      "RayleighBenardSolver::figures", owned_,
      KOKKOS_LAMBDA(long k, long j, long i, Sums& s) {
        const long kg = zs + (k - oz);
        const double h = dz(k), hc = dzc(k), ih = 1 / h, ihc = 1 / hc;
        // Wall gradients over the half cell between the wall and the first centre.
        if (kg == 0) s.v[0] += (0.5 - b(k, j, i)) * 2 * ih;
        if (kg == nz - 1) s.v[1] += (b(k, j, i) + 0.5) * 2 * ih;
        if (kg > 0) s.v[2] += w(k, j, i) * 0.5 * (b(k - 1, j, i) + b(k, j, i)) * hc;
        // |∇u|²: normal derivatives at centres, tangential ones at edges (interior), u_z and
        // v_z one-sided at the walls.
        double g = 0;
        const double ux = (u(k, j, i + 1) - u(k, j, i)) * ihx;
        const double wz = (w(k + 1, j, i) - w(k, j, i)) * ih;
        g += (ux * ux + wz * wz) * h;
        if constexpr (dim == 3) {
          const double vy = (v(k, j + 1, i) - v(k, j, i)) * ihy;
          const double uy = (u(k, j, i) - u(k, j - 1, i)) * ihy;
          const double vx = (v(k, j, i) - v(k, j, i - 1)) * ihx;
          g += (vy * vy + uy * uy + vx * vx) * h;
        }
        if (kg > 0) {
          const double uz = (u(k, j, i) - u(k - 1, j, i)) * ihc;
          const double wx = (w(k, j, i) - w(k, j, i - 1)) * ihx;
          g += (uz * uz + wx * wx) * hc;
          if constexpr (dim == 3) {
            const double vz = (v(k, j, i) - v(k - 1, j, i)) * ihc;
            const double wy = (w(k, j, i) - w(k, j - 1, i)) * ihy;
            g += (vz * vz + wy * wy) * hc;
          }
        }
        const auto wall_shear = [&] {  // u_z (and v_z) over the half cell next to a wall
          const double uz = 2 * u(k, j, i) * ih;
          double r = 0.5 * h * uz * uz;
          if constexpr (dim == 3) {
            const double vz = 2 * v(k, j, i) * ih;
            r += 0.5 * h * vz * vz;
          }
          return r;
        };
        if (kg == 0) g += wall_shear();
        if (kg == nz - 1) g += wall_shear();
        s.v[3] += g;
        // |∇b|²: x- and y-faces, interior z-faces, wall half-cells against the wall values.
        const double bx = (b(k, j, i) - b(k, j, i - 1)) * ihx;
        double q = bx * bx * h;
        if constexpr (dim == 3) {
          const double by = (b(k, j, i) - b(k, j - 1, i)) * ihy;
          q += by * by * h;
        }
        if (kg > 0) {
          const double bz = (b(k, j, i) - b(k - 1, j, i)) * ihc;
          q += bz * bz * hc;
        } else {
          const double bz = (b(k, j, i) - 0.5) * 2 * ih;
          q += 0.5 * h * bz * bz;
        }
        if (kg == nz - 1) {
          const double bz = (-0.5 - b(k, j, i)) * 2 * ih;
          q += 0.5 * h * bz * bz;
        }
        s.v[4] += q;
        double e = u(k, j, i) * u(k, j, i) * h;
        if constexpr (dim == 3) e += v(k, j, i) * v(k, j, i) * h;
        s.v[5] += e + (kg > 0 ? w(k, j, i) * w(k, j, i) * hc : 0.0);
      },
      sums);
  // Maxima cannot share the summing reducer: separate Max reductions.
  double div_max = 0, speed_max = 0;
  reduce_cells<dim, double>(
      "RayleighBenardSolver::max_divergence", owned_,
      KOKKOS_LAMBDA(long k, long j, long i, double& m) {
        double d = (u(k, j, i + 1) - u(k, j, i)) * ihx;
        if constexpr (dim == 3) d += (v(k, j + 1, i) - v(k, j, i)) * ihy;
        d += (w(k + 1, j, i) - w(k, j, i)) / dz(k);
        d = fabs(d);
        if (!(d <= m)) m = d;
      },
      Kokkos::Max<double>(div_max));
  reduce_cells<dim, double>(
      "RayleighBenardSolver::max_speed", owned_,
      KOKKOS_LAMBDA(long k, long j, long i, double& m) {
        double s = fabs(u(k, j, i));
        if constexpr (dim == 3) s = fmax(s, fabs(v(k, j, i)));
        s = fmax(s, fabs(w(k, j, i)));
        if (!(s <= m)) m = s;
      },
      Kokkos::Max<double>(speed_max));
  double local[6] = {sums.v[0], sums.v[1], sums.v[2], sums.v[3], sums.v[4], sums.v[5]}, total[6];
  MPI_Allreduce(local, total, 6, MPI_DOUBLE, MPI_SUM, comm_);
  div_max = grid_->global_max(div_max);
  speed_max = grid_->global_max(speed_max);
  const double columns = static_cast<double>(nx_ * ny_);  // layer height 1
  double h = std::min(hx_, hz_min_);
  if constexpr (dim == 3) h = std::min(h, hy_);
  Diagnostics d;
  d["nu_bottom"] = total[0] / columns;
  d["nu_top"] = total[1] / columns;
  d["nu_volume"] = 1 + std::sqrt(ra_ * pr_) * total[2] / columns;
  d["nu_kinetic"] = 1 + pr_ * total[3] / columns;
  d["nu_thermal"] = total[4] / columns;
  d["kinetic_energy"] = 0.5 * total[5] / columns;
  d["u_rms"] = std::sqrt(total[5] / columns);
  d["max_divergence"] = speed_max > 0 ? div_max * h / speed_max : div_max * h;
  return d;
}

template <int dim>
Diagnostics RayleighBenardSolver<dim>::diagnostics() const {
  Diagnostics d = instantaneous();
  d["dt"] = dt_;
  d["rayleigh"] = ra_;
  d["prandtl"] = pr_;
  const PoissonSolver& poisson = projection_->poisson();
  d["pressure_iterations_per_solve"] =
      poisson.solves() > 0
          ? static_cast<double>(poisson.iterations()) / static_cast<double>(poisson.solves())
          : 0.0;
  if (averaged_time_ > 0) {
    double lo = INFINITY, hi = -INFINITY;
    for (const char* name : kFigures) {
      const double mean = sums_.at(name) / averaged_time_;
      d[std::string("mean_") + name] = mean;
      if (std::string(name).rfind("nu_", 0) == 0) lo = std::min(lo, mean), hi = std::max(hi, mean);
    }
    d["mean_nu_spread"] = (hi - lo) / (0.5 * (hi + lo));  // (max − min)/mid of the five Nu
    d["averaged_time"] = averaged_time_;
  }
  return d;
}

template Diagnostics RayleighBenardSolver<2>::instantaneous() const;
template Diagnostics RayleighBenardSolver<3>::instantaneous() const;
template Diagnostics RayleighBenardSolver<2>::diagnostics() const;
template Diagnostics RayleighBenardSolver<3>::diagnostics() const;

}  // namespace surrox::solvers::rayleigh_benard
