// One SSP-RK3 step of the QG double gyre (Re = 450, Ro = 0.0036, spun up to t = 0.05) on three
// grids with each streamfunction solver (FFTW's sine transform, PETSc KSP with its default
// direct LU), as ns per node per step with the Poisson and tendency phases' shares; the
// tendency's bandwidth (bytes_per_second from a traffic model) sits next to a STREAM triad run
// in the same binary. At the end the KSP/FFTW time ratio per grid, from the medians when run
// with --benchmark_repetitions.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <iostream>
#include <map>

#include "apps/run_case.hpp"
#include "core/runtime.hpp"
#include "io/case_file.hpp"
#include "solvers/qg/qg_solver.hpp"

namespace {

surrox::Runtime* g_runtime = nullptr;
const char* const kQgBenchSolvers[] = {"fft", "ksp"};

// Per stage the tendency reads ψ and ω (the stencils' neighbours from cache) and writes the
// rate; the update reads ω, ω⁰, rate and writes ω; plus the stage-start copy (read, write).
constexpr double kQgTendencyBytesPerNode = 8.0 * (2 + 3 * (3 + 4));

void QgStep(benchmark::State& state) {
  using namespace surrox;
  const long nx = state.range(0);
  const std::string poisson = kQgBenchSolvers[state.range(1)];
  const io::CaseFile c = io::load_case_text(
      "solver: {type: qg}\n", "bench.yaml", apps::run_case_schema(),
      {"solver.cells=[" + std::to_string(nx) + ", " + std::to_string(2 * nx) + "]",
       "solver.end_time=1000", "solver.poisson.solver=" + poisson});
  solvers::qg::QgSolver solver;
  solver.initialize(c.root.section("solver"), *g_runtime);
  while (solver.time() < 0.05) solver.advance();  // a western boundary current has formed
  const auto before = solver.phase_times();
  long steps = 0;
  for (auto _ : state) {
    solver.advance();
    ++steps;
  }
  const auto after = solver.phase_times();
  const double nodes = static_cast<double>((nx - 1) * (2 * nx - 1));
  const auto per_node = [&](const char* phase) {
    return (after.at(phase) - before.at(phase)) / (nodes * static_cast<double>(steps)) * 1e9;
  };
  state.SetLabel(poisson);
  state.counters["ns_per_node_step"] = benchmark::Counter(
      nodes * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["poisson_ns_per_node_step"] = per_node("poisson");
  state.counters["tendency_ns_per_node_step"] = per_node("tendency");
  state.counters["tendency_GBps"] = kQgTendencyBytesPerNode / per_node("tendency");
}
BENCHMARK(QgStep)
    ->ArgsProduct({{64, 128, 256}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(1.0);

// Prints as the console does and keeps each run's (or median's) real time for the ratios.
class QgRatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      const bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      if (run.run_type == Run::RT_Aggregate && !median) continue;
      const std::string name = run.run_name.function_name + "/" + run.run_name.args;
      times_[name] = run.GetAdjustedRealTime();
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::cout << "\nKSP / FFTW time per step (medians when repeated):\n";
    for (long nx : {64, 128, 256}) {
      const std::string base = "QgStep/" + std::to_string(nx) + "/";
      if (times_.count(base + "0") && times_.count(base + "1"))
        std::cout << "  " << nx << " x " << 2 * nx << ": "
                  << times_[base + "1"] / times_[base + "0"] << "\n";
    }
  }

 private:
  std::map<std::string, double> times_;
};

}  // namespace

int main(int argc, char** argv) {
  surrox::RuntimeOptions options;
  options.log_level = "warn";
  surrox::Runtime runtime(argc, argv, options);
  g_runtime = &runtime;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  QgRatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
