#include "solvers/airfoil/surface_forces.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "solvers/airfoil/airfoil_solver.hpp"
#include "solvers/airfoil/flow_level.hpp"

namespace surrox::solvers::airfoil {

void sum_wall_forces(const FlowLevel& level, double* sums) {
  const Array2 xn = level.geometry.xn, yn = level.geometry.yn;
  const Array2 wvx = level.wall_viscous_x, wvy = level.wall_viscous_y;
  const Array3 fj = level.flux_j;
  const double p_inf = level.p_inf, x_ref = level.chord_line.x_ref, y_ref = level.chord_line.y_ref;
  SumN<5> force;
  Kokkos::parallel_reduce(
      "SurfaceForces::wall_forces", Range1(0, level.ni()),
      KOKKOS_LAMBDA(long i, SumN<5>& s) {
        const double x0 = xn(0, i), y0 = yn(0, i), x1 = xn(0, i + 1), y1 = yn(0, i + 1);
        const double sx = -(y1 - y0), sy = x1 - x0;
        const double pressure_x = -(fj(1, 0, i) + wvx(0, i)) + p_inf * sx;
        const double pressure_y = -(fj(2, 0, i) + wvy(0, i)) + p_inf * sy;
        const double fric_x = wvx(0, i), fric_y = wvy(0, i);
        const double xm = 0.5 * (x0 + x1) - x_ref, ym = 0.5 * (y0 + y1) - y_ref;
        s.v[0] += pressure_x, s.v[1] += pressure_y, s.v[2] += fric_x, s.v[3] += fric_y;
        s.v[4] += xm * (pressure_y + fric_y) - ym * (pressure_x + fric_x);
      },
      force);
  for (int n = 0; n < 5; ++n) sums[n] = force.v[n];
}

Diagnostics AirfoilSolver::coefficients() const {
  const FlowLevel& level = fine();
  const auto& f = level.wall_force;  // global, every rank
  const double px = f[0], py = f[1], fx = f[2], fy = f[3], moment = f[4];
  const double chord = level.chord_line.chord;
  const double q = 0.5 * chord;  // ½ ρ∞ |u∞|² c
  const double ca = std::cos(level.alpha), sa = std::sin(level.alpha);
  Diagnostics d;
  d["cl"] = (-(px + fx) * sa + (py + fy) * ca) / q;
  d["cd"] = ((px + fx) * ca + (py + fy) * sa) / q;
  d["cd_pressure"] = (px * ca + py * sa) / q;
  d["cd_friction"] = (fx * ca + fy * sa) / q;
  d["cm"] = -moment / (q * chord);
  return d;
}

AirfoilSolver::Surface AirfoilSolver::surface() const {
  const FlowLevel& level = fine();
  const Slab& slab = level.slab;
  const long ni = level.ni();
  // The wall fluxes per face from the wall rank: convective x, y and viscous x, y.
  std::vector<double> wall(static_cast<std::size_t>(4 * ni));
  if (slab.has_wall()) {
    auto fj = Kokkos::create_mirror_view_and_copy(
        Kokkos::HostSpace(), Kokkos::subview(level.flux_j, Kokkos::ALL, 0, Kokkos::ALL));
    auto vx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), level.wall_viscous_x);
    auto vy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), level.wall_viscous_y);
    for (long i = 0; i < ni; ++i) {
      wall[static_cast<std::size_t>(i)] = fj(1, i);
      wall[static_cast<std::size_t>(ni + i)] = fj(2, i);
      wall[static_cast<std::size_t>(2 * ni + i)] = vx(0, i);
      wall[static_cast<std::size_t>(3 * ni + i)] = vy(0, i);
    }
  }
  if (slab.ranks() > 1)
    MPI_Bcast(wall.data(), static_cast<int>(4 * ni), MPI_DOUBLE, 0, slab.comm());
  const ChordLine& c = level.chord_line;
  const HostMatrix& gx = level.grid_x;
  const HostMatrix& gy = level.grid_y;
  Surface s;
  for (long i = 0; i < ni; ++i) {
    const double x0 = gx(i, 0), y0 = gy(i, 0), x1 = gx(i + 1, 0), y1 = gy(i + 1, 0);
    const double fx = wall[static_cast<std::size_t>(i)],
                 fy = wall[static_cast<std::size_t>(ni + i)];
    const double vx = wall[static_cast<std::size_t>(2 * ni + i)],
                 vy = wall[static_cast<std::size_t>(3 * ni + i)];
    const double sx = -(y1 - y0), sy = x1 - x0, s2 = sx * sx + sy * sy, len = std::sqrt(s2);
    // The convective wall flux along S (into the flow) is p_w S: the mass flux vanishes.
    const double fcx = fx + vx, fcy = fy + vy;
    const double pw = (fcx * sx + fcy * sy) / s2;
    const bool upper = i >= c.i_le;
    const double sign = upper ? 1.0 : -1.0;  // downstream tangent: +e_i above, −e_i below
    const double tx = sign * (x1 - x0) / len, ty = sign * (y1 - y0) / len;
    const double tau = (vx * tx + vy * ty) / len;
    const double xm = 0.5 * (x0 + x1) - c.x_le, ym = 0.5 * (y0 + y1) - c.y_le;
    s.x.push_back((xm * c.dx + ym * c.dy) / c.chord);
    s.y.push_back((-xm * c.dy + ym * c.dx) / c.chord);
    s.cp.push_back(2 * (pw - level.p_inf));
    s.cf.push_back(2 * tau);
    s.upper.push_back(upper ? 1 : 0);
  }
  return s;
}

double AirfoilSolver::separation_point() const {
  const FlowLevel& level = fine();
  if (!level.viscous) return std::numeric_limits<double>::quiet_NaN();
  const Surface s = surface();
  for (long i = level.chord_line.i_le + 1; i < level.ni(); ++i) {
    if (s.cf[i - 1] > 0 && s.cf[i] <= 0) {
      const double t = s.cf[i - 1] / (s.cf[i - 1] - s.cf[i]);
      return s.x[i - 1] + t * (s.x[i] - s.x[i - 1]);
    }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace surrox::solvers::airfoil
