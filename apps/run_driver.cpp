#include "apps/run_driver.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cmath>

#include "apps/monitor_log.hpp"
#include "apps/output_series.hpp"
#include "core/progress.hpp"
#include "core/timer.hpp"
#include "io/hdf5_checkpoint.hpp"
#include "solvers/solver.hpp"
#include "surrogates/field_statistics.hpp"

namespace surrox::apps {
namespace {

// Periodic actions counted in steps ("every N steps"; 0 = never).
bool due(long step, long long interval) { return interval > 0 && step % interval == 0; }

void write_checkpoint(const solvers::Solver& solver, const std::filesystem::path& path,
                      MPI_Comm comm) {
  io::Hdf5Checkpoint checkpoint;
  solver.save_state(checkpoint);
  checkpoint.scalars["step"] = static_cast<double>(solver.step());
  checkpoint.scalars["time"] = solver.time();
  checkpoint.write(path, comm);
}

constexpr std::size_t kProgressTicks = 1000;

OutputSettings output_settings(const io::CaseFile& case_file, const std::string& type) {
  const CaseNode output_node = case_file.root.section("output");
  OutputSettings settings;
  settings.vtk = output_node.boolean("vtk");
  settings.hdf5 = output_node.boolean("hdf5");
  settings.producer = "surrox run " + type;
  settings.case_yaml = case_file.resolved_yaml();
  return settings;
}

// A non-finite residual or time step ends the run with its diagnosis (and the checkpoint that
// holds its last good state, where there is one).
void check_step(const solvers::StepReport& report, double residual, const std::string& checkpoint) {
  if (std::isfinite(residual) && std::isfinite(report.dt) && report.dt > 0) return;
  throw Error(
      fmt::format("the run diverged at step {} (t = {:.6g}): residual {}, dt {}; {}"
                  "reduce the time step or check the parameters",
                  report.step, report.time, residual, report.dt,
                  checkpoint.empty() ? "" : "the last good checkpoint is " + checkpoint + "; "));
}

// Output times are multiples of the interval from start_time on, so a restarted run keeps the
// same grid of times; each is its index times the interval (a running sum would drift and could
// land a write a rounding error before end_time, followed by a second one at end_time).
class OutputGrid {
 public:
  OutputGrid(double interval, double start_time, double now) : interval_(interval) {
    if (interval <= 0) return;
    index_ = static_cast<long long>(std::floor(now / interval + 1e-9)) + 1;
    index_ = std::max(index_, static_cast<long long>(std::ceil(start_time / interval - 1e-9)));
    next_ = static_cast<double>(index_) * interval;
  }
  double next() const { return next_; }  // infinity without an interval
  bool reached(double now) const { return now >= next_ * (1 - 1e-12); }
  void pass(double now) {
    while (next_ <= now * (1 + 1e-12)) next_ = static_cast<double>(++index_) * interval_;
  }
  bool on_grid(double t) const {  // never without an interval
    return interval_ > 0 && std::fabs(t / interval_ - std::round(t / interval_)) < 1e-9;
  }

 private:
  double interval_;
  long long index_ = 0;
  double next_ = INFINITY;
};

// The solver built, initialized and, for a restart, put back at its checkpoint.
std::unique_ptr<solvers::Solver> start_solver(Runtime& runtime, const CaseNode& solver_node,
                                              const RunOptions& options, PhaseTimes& phases) {
  const std::string type = solver_node.type();
  auto solver = solvers::registry().at(type, solver_node.context("type")).make();
  {
    auto scope = phases.measure("initialize");
    solver->initialize(solver_node, runtime);
  }
  if (options.restart_from) {
    if (!solver->supports_restart())
      throw InputError("solver '" + type + "' cannot restart from a checkpoint",
                       {options.restart_from->string()});
    auto scope = phases.measure("restart");
    const io::Hdf5Checkpoint checkpoint =
        io::Hdf5Checkpoint::read(*options.restart_from, runtime.comm());
    solver->load_state(checkpoint);
    spdlog::info("restarted from {} at step {}, t = {:.6g}", options.restart_from->string(),
                 solver->step(), solver->time());
  }
  return solver;
}

// What the run reached: steps, time, diagnostics (a steady solver's `converged` turned into a
// status), field statistics.
nlohmann::json run_figures(solvers::Solver& solver, const std::string& type, Runtime& runtime) {
  nlohmann::json results;
  results["solver"] = type;
  results["finished"] =
      solver.finished();  // false when stopped by --max-steps: continue with --restart
  results["steps"] = solver.step();
  results["time"] = solver.time();
  results["residual"] = solver.residual();
  const solvers::Diagnostics diagnostics = solver.diagnostics();
  results["diagnostics"] = diagnostics;
  // A steady solver reports `converged` among its diagnostics; stopping at its iteration limit
  // without converging is not a success a script or a sweep may take for one.
  if (const auto it = diagnostics.find("converged"); it != diagnostics.end()) {
    const bool converged = it->second != 0.0;
    results["converged"] = converged;
    if (!converged && solver.finished()) {
      results["status"] = "not_converged";
      spdlog::warn(
          "{} stopped at its iteration limit ({} steps) without converging: residual {:.3e}; "
          "raise max_iterations or check the case",
          type, solver.step(), solver.residual());
    }
  }
  results["fields"] = surrogates::field_statistics(solver.state(), runtime.comm());
  for (const auto& [name, value] : diagnostics) spdlog::info("{} = {:.6g}", name, value);
  return results;
}

}  // namespace

nlohmann::json run_solver(Runtime& runtime, const io::CaseFile& case_file,
                          const RunOptions& options) {
  const CaseNode solver_node = case_file.root.section("solver");
  const CaseNode output_node = case_file.root.section("output");
  const std::string type = solver_node.type();
  const std::filesystem::path& output_dir = options.output_dir;
  PhaseTimes phases;

  auto solver = start_solver(runtime, solver_node, options, phases);

  OutputSeries output(output_dir, runtime, output_settings(case_file, type));
  const double interval = output_node.real("interval");
  const double start_time = output_node.real("start_time");
  const long long monitor_interval = output_node.integer("monitor_interval");
  const long long checkpoint_interval = output_node.integer("checkpoint_interval");
  const bool checkpoints = solver->supports_restart() && output_node.boolean("checkpoint");
  const auto checkpoint_path = output_dir / "checkpoint.h5";
  MonitorLog monitor(output_dir, runtime.root());

  auto checkpoint_now = [&] {
    auto scope = phases.measure("checkpoint");
    write_checkpoint(*solver, checkpoint_path, runtime.comm());
  };
  OutputGrid grid(interval, start_time, solver->time());
  auto write_output = [&] {
    if (solver->time() < start_time * (1 - 1e-12)) return;  // still spinning up
    auto scope = phases.measure("output");
    output.write(solver->time(), solver->output_mesh());
  };
  // Whether the current state is written: the run's last state is written once, by the loop's
  // output, by this first write, or at the end (a restart of a finished run writes no second).
  bool final_written = false;
  if (!options.restart_from) {
    write_output();
    final_written = true;
  } else {
    // A restart continues the records of the run it continues (in this folder): monitor rows up
    // to the checkpoint's step, outputs before its time. The output at the restart time is
    // written again only where the straight run writes one (on the interval's grid): an earlier
    // segment stopped by --max-steps wrote its last state off the grid.
    monitor.continue_after(solver->step());
    output.continue_before(solver->time());
    if (grid.on_grid(solver->time())) {
      write_output();
      final_written = true;
    }
  }

  // Progress is part of the info output: --log-level warn (or off) keeps a run quiet.
  Progress progress("run " + type, kProgressTicks,
                    runtime.root() && options.show_progress &&
                        spdlog::default_logger_raw()->should_log(spdlog::level::info),
                    /*unit=*/"");
  Stopwatch loop_clock;
  const long first_step = solver->step();
  auto stop_requested = [&] {
    return options.max_steps > 0 && solver->step() - first_step >= options.max_steps;
  };
  while (!solver->finished() && !stop_requested()) {
    solvers::StepReport report;
    {
      auto scope = phases.measure("advance");
      if (interval > 0) solver->limit_step_to(grid.next());
      report = solver->advance();
    }
    const double residual = solver->residual();
    check_step(report, residual, checkpoints ? checkpoint_path.string() : "");
    if (due(report.step, monitor_interval)) {
      auto scope = phases.measure("monitor");
      monitor.record(report, residual, solver->monitor());
    }
    final_written = false;
    if (grid.reached(solver->time())) {
      write_output();
      final_written = true;
      grid.pass(solver->time());
    }
    if (checkpoints && due(report.step, checkpoint_interval)) checkpoint_now();
    const double steps_per_second =
        (report.step - first_step) / std::max(loop_clock.seconds(), 1e-9);
    progress.update(static_cast<std::size_t>(solver->progress() * kProgressTicks),
                    fmt::format("step {} ({:.3g} steps/s)  t {:.4g}  residual {:.3e}", report.step,
                                steps_per_second, report.time, residual));
  }
  if (!final_written) write_output();
  if (checkpoints) checkpoint_now();
  progress.finish(fmt::format("step {}  t {:.4g}", solver->step(), solver->time()));

  nlohmann::json results = run_figures(*solver, type, runtime);
  results["outputs"] = output.close();
  if (const std::string csv = monitor.close(); !csv.empty())
    results["outputs"]["monitor_csv"] = csv;
  if (checkpoints) results["outputs"]["checkpoint"] = checkpoint_path.string();
  if (options.restart_from) results["restarted_from"] = options.restart_from->string();
  solver->finalize(output_dir, results);
  results["timings_s"] = phases.seconds();
  for (const auto& [phase, seconds] : solver->phase_times())
    results["timings_s"]["solver_" + phase] = seconds;
  return results;
}

}  // namespace surrox::apps
