#include "couplers/steady_run.hpp"

#include "core/timer.hpp"

namespace surrox::couplers {

SteadyRun run_to_criterion(solvers::SteadyFlowSolver& solver) {
  const double criterion = solver.convergence_criterion();
  SteadyRun run{solvers::ResidualLevels(criterion)};
  Stopwatch watch;
  while (!solver.finished()) {
    solver.advance();
    if (!std::isfinite(solver.residual())) break;
    run.levels.record(solver.residual(), solver.step());
  }
  run.solve_s = watch.seconds();
  run.iterations = solver.step();
  run.final_residual = solver.residual();
  run.converged = std::isfinite(solver.residual()) && solver.residual() <= criterion;
  solver
      .compute_residual();  // the final state's coefficients, as the solver's summary reports them
  const auto c = solver.coefficients();
  run.cl = c.at("cl"), run.cd = c.at("cd");
  return run;
}

}  // namespace surrox::couplers
