#include "couplers/steady_run.hpp"

#include "core/timer.hpp"

namespace surrox::couplers {

SteadyRun run_to_criterion(solvers::SteadyFlowSolver& solver) {
  const double criterion = solver.convergence_criterion();
  SteadyRun run{solvers::ResidualLevels(criterion)};
  solvers::CauchyCriterion cauchy({"cl", "cd"}, solvers::kCauchyElements, solvers::kCauchyEpsilon);
  Stopwatch watch;
  while (!solver.finished()) {
    solver.advance();
    if (!std::isfinite(solver.residual())) break;
    run.levels.record(solver.residual(), solver.step());
    const auto c = solver.coefficients();
    run.cl_history.push_back(c.at("cl"));
    run.cd_history.push_back(c.at("cd"));
    run.seconds.push_back(watch.seconds());
    cauchy.record(c);
    if (run.cauchy_cycle < 0 && cauchy.converged()) run.cauchy_cycle = solver.step();
  }
  run.solve_s = watch.seconds();
  run.iterations = solver.step();
  run.final_residual = solver.residual();
  run.converged = std::isfinite(solver.residual()) && solver.converged();
  solver
      .compute_residual();  // the final state's coefficients, as the solver's summary reports them
  const auto c = solver.coefficients();
  run.cl = c.at("cl"), run.cd = c.at("cd");
  return run;
}

long cycles_to_accuracy(const SteadyRun& run, double cl_reference, double cd_reference) {
  long first = -1;
  for (std::size_t n = run.cl_history.size(); n-- > 0;) {
    if (std::abs(run.cl_history[n] - cl_reference) > kClTolerance ||
        std::abs(run.cd_history[n] - cd_reference) > kCdTolerance)
      break;
    first = static_cast<long>(n) + 1;
  }
  return first;
}

double seconds_at(const SteadyRun& run, long cycle) {
  if (cycle < 1 || cycle > static_cast<long>(run.seconds.size())) return NAN;
  return run.seconds[static_cast<std::size_t>(cycle - 1)];
}

}  // namespace surrox::couplers
