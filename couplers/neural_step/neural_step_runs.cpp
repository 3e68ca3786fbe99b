#include "couplers/neural_step/neural_step_runs.hpp"

#include "core/timer.hpp"

namespace surrox::couplers {
namespace {

using solvers::qg::QgSolver;

void reset_solver(QgSolver& solver, const QgStartState& start) {
  solver.set_state(start.psi, start.omega);
  solver.set_clock(start.time, start.step);
  solver.limit_step_to(INFINITY);
}

// The untimed figures at the end of window w (1-based).
void record_window(const QgSolver& solver, long w, const NeuralStepWindows& windows,
                   QgRunRecord& r) {
  const std::vector<double> omega = solver.vorticity();
  r.energy.push_back(qg_energy(solver.streamfunction(), omega, solver.hx() * solver.hy()));
  if (r.mean_omega.empty()) r.mean_omega.assign(omega.size(), 0.0);
  const double weight = 1.0 / static_cast<double>(windows.windows);
  for (std::size_t n = 0; n < omega.size(); ++n) r.mean_omega[n] += weight * omega[n];
  if (w % windows.sample_every == 0) r.samples.push_back(omega);
}

void solver_window(QgSolver& solver, long k) {
  for (long s = 0; s < k; ++s) solver.advance();
}

}  // namespace

QgStartState qg_start_state(const QgSolver& solver) {
  return {solver.streamfunction(), solver.vorticity(), solver.time(), solver.step()};
}

// The guard's residual of the solver's own window and of ω₀ + δ̄ + ΨΨᵀ(ω₁ − ω₀ − δ̄), the
// best proposal in the span of the changes' modes. Leaves the solver at ω₁.
void window_residuals(QgSolver& solver, const std::vector<double>& omega0,
                      const std::vector<double>& tendency0, double tau,
                      const surrogates::pod::PodBasis& basis, QgRunRecord& r) {
  const std::vector<double> psi1 = solver.streamfunction(), omega1 = solver.vorticity();
  r.own_residuals.push_back(
      trapezoid_residual(omega0, omega1, tendency0, solver.vorticity_tendency(), tau));
  const auto n = static_cast<long>(omega1.size());
  const torch::Tensor change =
      torch::from_blob(const_cast<double*>(omega1.data()), {n}, torch::kFloat64) -
      torch::from_blob(const_cast<double*>(omega0.data()), {n}, torch::kFloat64);
  const torch::Tensor best =
      torch::from_blob(const_cast<double*>(omega0.data()), {n}, torch::kFloat64) +
      basis.reconstruct(basis.project(change.unsqueeze(0)))[0];
  const std::vector<double> proposal(best.data_ptr<double>(), best.data_ptr<double>() + n);
  solver.set_vorticity(proposal);
  r.pod_residuals.push_back(
      trapezoid_residual(omega0, proposal, tendency0, solver.vorticity_tendency(), tau));
  solver.set_state(psi1, omega1);
}

QgRunRecord run_pure_solver(QgSolver& solver, const QgStartState& start, const NeuralStepWindows& w,
                            const surrogates::pod::PodBasis* residuals_in) {
  reset_solver(solver, start);
  QgRunRecord r;
  const double tau = static_cast<double>(w.k) * w.dt;
  for (long n = 1; n <= w.windows; ++n) {
    std::vector<double> omega0, tendency0;
    if (residuals_in) {
      omega0 = solver.vorticity();
      tendency0 = solver.vorticity_tendency();
    }
    Stopwatch watch;
    solver_window(solver, w.k);
    r.work_s += watch.seconds();
    r.solver_steps += w.k;
    if (residuals_in) window_residuals(solver, omega0, tendency0, tau, *residuals_in, r);
    record_window(solver, n, w, r);
  }
  return r;
}

GuardedRecord run_guarded(QgSolver& solver, NeuralStepModel& model, const QgStartState& start,
                          const NeuralStepWindows& w, const GuardTolerances& tolerances,
                          bool online) {
  reset_solver(solver, start);
  model.reset_to_start();
  GuardedRecord g;
  g.accepted_per_block.assign(static_cast<std::size_t>(w.blocks), 0);
  g.windows_per_block.assign(static_cast<std::size_t>(w.blocks), 0);
  const double tau = static_cast<double>(w.k) * w.dt;
  QgWindowStart here;
  bool have_start = false;
  for (long n = 1; n <= w.windows; ++n) {
    const auto block = static_cast<std::size_t>((n - 1) * w.blocks / w.windows);
    ++g.windows_per_block[block];
    Stopwatch step_watch;
    if (!have_start) {
      Stopwatch watch;
      here = qg_window_start(solver);
      g.guard_s += watch.seconds();
    }
    Stopwatch watch;
    const PodProjection projection = model.project(here.omega);
    g.projection_s += watch.seconds();
    bool accepted = false, tried = false;
    if (projection.error <= tolerances.projection) {
      watch.restart();
      std::vector<double> proposal = model.propose(here.omega, projection);
      g.inference_s += watch.seconds();
      watch.restart();
      GuardVerdict v = check_proposal(solver, here, proposal, tau, tolerances);
      tried = true;
      if (v.failed == "bounds") ++g.bounds_failures;
      if (v.failed == "residual" || v.accepted) g.residuals.push_back(v.residual);
      if (v.failed == "residual") ++g.residual_failures;
      if (v.accepted) {
        accepted = true;
        solver.set_clock(solver.time() + tau, solver.step() + w.k);
        here = {std::move(v.psi), std::move(proposal), std::move(v.tendency), v.energy,
                v.enstrophy};
      }
      g.guard_s += watch.seconds();
    } else {
      ++g.projection_failures;
    }
    if (accepted) {
      ++g.accepted;
      ++g.accepted_per_block[block];
      have_start = true;
    } else {
      watch.restart();
      if (tried) solver.set_state(here.psi, here.omega);
      solver_window(solver, w.k);
      g.run.solver_steps += w.k;
      g.solver_s += watch.seconds();
      if (online) {
        watch.restart();
        model.learn(projection, here.omega, solver.vorticity());
        g.training_s += watch.seconds();
      }
      have_start = false;
    }
    g.run.work_s += step_watch.seconds();
    record_window(solver, n, w, g.run);
  }
  return g;
}

}  // namespace surrox::couplers
