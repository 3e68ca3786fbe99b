#include "couplers/neural_step/neural_step_guard.hpp"

#include <cmath>

namespace surrox::couplers {

double qg_energy(const std::vector<double>& psi, const std::vector<double>& omega, double area) {
  double sum = 0;
  for (std::size_t n = 0; n < psi.size(); ++n) sum += psi[n] * omega[n];
  return -0.5 * sum * area;
}

double qg_enstrophy(const std::vector<double>& omega, double area) {
  double sum = 0;
  for (double w : omega) sum += w * w;
  return 0.5 * sum * area;
}

double trapezoid_residual(const std::vector<double>& omega0, const std::vector<double>& omega1,
                          const std::vector<double>& tendency0,
                          const std::vector<double>& tendency1, double tau) {
  double miss = 0, size = 0;
  for (std::size_t n = 0; n < omega0.size(); ++n) {
    const double change = 0.5 * tau * (tendency0[n] + tendency1[n]);
    const double d = omega1[n] - omega0[n] - change;
    miss += d * d;
    size += change * change;
  }
  if (!(size > 0)) return miss > 0 ? INFINITY : 0.0;
  return std::sqrt(miss / size);  // NaN stays NaN and fails every comparison
}

QgWindowStart qg_window_start(solvers::qg::QgSolver& solver) {
  QgWindowStart s{solver.streamfunction(), solver.vorticity(), solver.vorticity_tendency()};
  const double area = solver.hx() * solver.hy();
  s.energy = qg_energy(s.psi, s.omega, area);
  s.enstrophy = qg_enstrophy(s.omega, area);
  return s;
}

GuardVerdict check_proposal(solvers::qg::QgSolver& solver, const QgWindowStart& start,
                            const std::vector<double>& proposal, double tau,
                            const GuardTolerances& tolerances) {
  GuardVerdict v;
  solver.set_vorticity(proposal);
  const double area = solver.hx() * solver.hy();
  v.psi = solver.streamfunction();
  v.energy = qg_energy(v.psi, proposal, area);
  v.enstrophy = qg_enstrophy(proposal, area);
  const double b = tolerances.bounds;
  const auto within = [b](double value, double lo, double hi) {
    return value >= lo * (1 - b) && value <= hi * (1 + b);  // NaN fails
  };
  if (!within(v.energy, tolerances.energy_min, tolerances.energy_max) ||
      !within(v.enstrophy, tolerances.enstrophy_min, tolerances.enstrophy_max)) {
    v.failed = "bounds";
    return v;
  }
  v.tendency = solver.vorticity_tendency();
  v.residual = trapezoid_residual(start.omega, proposal, start.tendency, v.tendency, tau);
  if (!(v.residual <= tolerances.residual)) {
    v.failed = "residual";
    return v;
  }
  v.accepted = true;
  return v;
}

}  // namespace surrox::couplers
