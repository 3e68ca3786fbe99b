// The QG solver's state as host vectors, for couplers that propose states (neural time steps):
// read ψ, ω and ∂ω/∂t, set ω (with its inversion) or a saved (ψ, ω), move the clock.
#include <fmt/format.h>

#include "solvers/qg/qg_solver.hpp"

namespace surrox::solvers::qg {
namespace {

// The owned interior nodes of a ghosted field, x fastest.
std::vector<double> qg_owned_values(const Field3& field, long ox, long oz, long xm, long zm) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), field);
  std::vector<double> values(static_cast<std::size_t>(xm * zm));
  for (long k = 0; k < zm; ++k)
    for (long i = 0; i < xm; ++i)
      values[static_cast<std::size_t>(k * xm + i)] = host(k + oz, 0, i + ox);
  return values;
}

void qg_set_owned_values(const Field3& field, const std::vector<double>& values, long ox, long oz,
                         long xm, long zm) {
  if (static_cast<long>(values.size()) != xm * zm)
    throw Error(fmt::format("a QG state of {} values for {} owned nodes", values.size(), xm * zm));
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), field);
  for (long k = 0; k < zm; ++k)
    for (long i = 0; i < xm; ++i)
      host(k + oz, 0, i + ox) = values[static_cast<std::size_t>(k * xm + i)];
  Kokkos::deep_copy(field, host);
}

}  // namespace

std::vector<double> QgSolver::vorticity() const {
  return qg_owned_values(omega_, ox_, oz_, xm_, zm_);
}

std::vector<double> QgSolver::streamfunction() const {
  return qg_owned_values(psi_, ox_, oz_, xm_, zm_);
}

std::vector<double> QgSolver::vorticity_tendency() {
  tendency();
  return qg_owned_values(rate_, ox_, oz_, xm_, zm_);
}

void QgSolver::set_vorticity(const std::vector<double>& omega) {
  qg_set_owned_values(omega_, omega, ox_, oz_, xm_, zm_);
  grid_->exchange(omega_);
  solve_streamfunction();
  set_wall_vorticity();
}

void QgSolver::set_state(const std::vector<double>& psi, const std::vector<double>& omega) {
  qg_set_owned_values(psi_, psi, ox_, oz_, xm_, zm_);
  qg_set_owned_values(omega_, omega, ox_, oz_, xm_, zm_);
  grid_->exchange(psi_);
  grid_->exchange(omega_);
  set_wall_vorticity();
}

void QgSolver::set_clock(double time, long step) {
  time_ = time;
  step_ = step;
}

}  // namespace surrox::solvers::qg
