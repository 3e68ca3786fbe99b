#include "training/field/airfoil_wall_forces.hpp"

#include <cmath>

#include "core/error.hpp"

namespace surrox::training {

ForceCoefficients wall_force_coefficients(const WallRow& w, const FreeStream& s) {
  const std::size_t ni = w.rho.size();
  if (ni < 3 || w.u.size() != ni || w.v.size() != ni || w.p.size() != ni || w.x0.size() != ni + 1 ||
      w.y0.size() != ni + 1 || w.x1.size() != ni + 1 || w.y1.size() != ni + 1)
    throw InputError(
        "wall forces: a wall of ni faces needs ni + 1 nodes on rows 0 and 1 and ni "
        "cell states");
  if (!(s.mach > 0)) throw InputError("wall forces: the Mach number must be positive");
  constexpr double kGamma = 1.4;
  const double p_inf = 1 / (kGamma * s.mach * s.mach);
  double chord = 0;
  for (std::size_t i = 0; i < ni; ++i)
    chord = std::max(chord, std::hypot(w.x0[i] - w.x0[0], w.y0[i] - w.y0[0]));
  const double mu_inf = s.reynolds > 0 ? chord / s.reynolds : 0.0;
  double px = 0, py = 0, fx = 0, fy = 0;
  for (std::size_t i = 0; i < ni; ++i) {
    if (!(w.rho[i] > 0)) throw InputError("wall forces: a non-positive density in a wall cell");
    // S: the wall face's normal times its length, pointing into the fluid (j increasing).
    const double sx = -(w.y0[i + 1] - w.y0[i]), sy = w.x0[i + 1] - w.x0[i];
    const double length = std::hypot(sx, sy), nx = sx / length, ny = sy / length;
    px -= (w.p[i] - p_inf) * sx;
    py -= (w.p[i] - p_inf) * sy;
    if (mu_inf == 0) continue;
    const double xc = 0.25 * (w.x0[i] + w.x0[i + 1] + w.x1[i] + w.x1[i + 1]);
    const double yc = 0.25 * (w.y0[i] + w.y0[i + 1] + w.y1[i] + w.y1[i + 1]);
    const double d =
        (xc - 0.5 * (w.x0[i] + w.x0[i + 1])) * nx + (yc - 0.5 * (w.y0[i] + w.y0[i + 1])) * ny;
    double mu = mu_inf;
    if (s.sutherland_ratio > 0) {
      const double t = w.p[i] / w.rho[i] / p_inf, r = s.sutherland_ratio;
      mu *= t * std::sqrt(t) * (1 + r) / (t + r);
    }
    const double un = w.u[i] * nx + w.v[i] * ny;
    fx += mu * length / d * (w.u[i] + un * nx / 3);
    fy += mu * length / d * (w.v[i] + un * ny / 3);
  }
  const double q = 0.5 * chord, a = s.alpha_deg * M_PI / 180;
  const double ca = std::cos(a), sa = std::sin(a);
  ForceCoefficients c;
  c.cl = (-(px + fx) * sa + (py + fy) * ca) / q;
  c.cd = ((px + fx) * ca + (py + fy) * sa) / q;
  c.cd_pressure = (px * ca + py * sa) / q;
  c.cd_friction = (fx * ca + fy * sa) / q;
  return c;
}

}  // namespace surrox::training
