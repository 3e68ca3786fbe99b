#include "couplers/field/field_guard.hpp"

#include <cmath>

namespace surrox::couplers {

GuardReport repair_unphysical(PrimitiveField& f, double mach, double alpha_deg, double gamma) {
  const double alpha = alpha_deg * M_PI / 180;
  const double rho_inf = 1, u_inf = std::cos(alpha), v_inf = std::sin(alpha),
               p_inf = 1 / (gamma * mach * mach);
  GuardReport report;
  const long ni = static_cast<long>(f.rho.extent(0)), nj = static_cast<long>(f.rho.extent(1));
  report.cells = ni * nj;
  const bool eddy = f.nu_t.size() > 0;
  for (long i = 0; i < ni; ++i)
    for (long j = 0; j < nj; ++j) {
      const double r = f.rho(i, j), u = f.u(i, j), v = f.v(i, j), p = f.p(i, j);
      const bool bad_nu_t = eddy && !std::isfinite(f.nu_t(i, j));
      const bool nonfinite = !std::isfinite(r) || !std::isfinite(u) || !std::isfinite(v) ||
                             !std::isfinite(p) || bad_nu_t;
      const bool bad_rho = !nonfinite && !(r > 0);
      const bool bad_p = !nonfinite && !(p > 0);
      if (!(nonfinite || bad_rho || bad_p)) continue;
      report.nonfinite += nonfinite;
      report.nonpositive_density += bad_rho;
      report.nonpositive_pressure += bad_p;
      ++report.repaired;
      f.rho(i, j) = rho_inf, f.u(i, j) = u_inf, f.v(i, j) = v_inf, f.p(i, j) = p_inf;
      if (bad_nu_t) f.nu_t(i, j) = 0;  // no eddy viscosity
    }
  return report;
}

}  // namespace surrox::couplers
