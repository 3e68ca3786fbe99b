#include "apps/run_driver.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cmath>

#include "apps/output_series.hpp"
#include "core/progress.hpp"
#include "core/timer.hpp"
#include "solvers/solver.hpp"
#include "surrogates/field_statistics.hpp"

namespace surrox::apps {

nlohmann::json run_solver(Runtime& runtime, const io::CaseFile& case_file,
                          const std::filesystem::path& output_dir) {
  const CaseNode solver_node = case_file.root.section("solver");
  const CaseNode output_node = case_file.root.section("output");
  const std::string type = solver_node.type();
  PhaseTimes phases;

  auto solver = solvers::registry().at(type, solver_node.context("type")).make();
  {
    auto scope = phases.measure("initialize");
    solver->initialize(solver_node, runtime);
  }

  OutputSettings settings;
  settings.vtk = output_node.boolean("vtk");
  settings.hdf5 = output_node.boolean("hdf5");
  settings.producer = "surrox run " + type;
  settings.case_yaml = case_file.resolved_yaml();
  OutputSeries output(output_dir, runtime, settings);
  const double interval = output_node.real("interval");
  auto write_output = [&] {
    auto scope = phases.measure("output");
    output.write(solver->time(), solver->output_mesh());
  };
  write_output();
  double next_output = interval > 0 ? interval : INFINITY;

  constexpr std::size_t kProgressTicks = 1000;
  Progress progress("run " + type, kProgressTicks, runtime.root(), /*unit=*/"");
  Stopwatch loop_clock;
  bool final_written = false;
  while (!solver->finished()) {
    solvers::StepReport report;
    {
      auto scope = phases.measure("advance");
      report = solver->advance();
    }
    const double residual = solver->residual();
    if (!std::isfinite(residual) || !std::isfinite(report.dt) || report.dt <= 0) {
      throw Error(fmt::format("the run diverged at step {} (t = {:.6g}): residual {}, dt {}; "
                              "reduce the time step or check the parameters",
                              report.step, report.time, residual, report.dt));
    }
    final_written = false;
    if (solver->time() >= next_output * (1 - 1e-12)) {
      write_output();
      final_written = true;
      while (next_output <= solver->time() * (1 + 1e-12)) next_output += interval;
    }
    progress.update(static_cast<std::size_t>(solver->progress() * kProgressTicks),
                    fmt::format("step {} ({:.3g} steps/s)  t {:.4g}  residual {:.3e}", report.step,
                                report.step / std::max(loop_clock.seconds(), 1e-9), report.time, residual));
  }
  if (!final_written) write_output();
  progress.finish(fmt::format("step {}  t {:.4g}", solver->step(), solver->time()));

  nlohmann::json results;
  results["solver"] = type;
  results["steps"] = solver->step();
  results["time"] = solver->time();
  results["residual"] = solver->residual();
  results["diagnostics"] = solver->diagnostics();
  results["fields"] = surrogates::field_statistics(solver->state());
  results["outputs"] = output.close();
  results["timings_s"] = phases.seconds();
  for (const auto& [name, value] : solver->diagnostics()) spdlog::info("{} = {:.6g}", name, value);
  return results;
}

}  // namespace surrox::apps
