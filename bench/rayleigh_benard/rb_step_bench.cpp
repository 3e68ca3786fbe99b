// One SSP-RK3 step of the Rayleigh–Bénard solver on 512 × 128 cells (Ra = 1e6, developed
// flow), reported as ns per cell per step, with the bandwidth the advection–diffusion kernels
// reach (bytes_per_second, from a traffic model of their arrays) next to a STREAM triad run in
// the same binary, and the pressure solve's share.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>

#include "apps/run_case.hpp"
#include "core/runtime.hpp"
#include "io/case_file.hpp"
#include "solvers/rayleigh_benard/rb_solver.hpp"

namespace {

surrox::Runtime* g_runtime = nullptr;

// StreamTriad comes from bench/stream_triad_bench.cpp, compiled into this binary.

// Bytes per cell per step the advection–diffusion phase must move at least: the CFL reduction
// (u, w), three stage-start copies (2 × 3 arrays), and per stage the right-hand side (read u,
// w, b; write three) and the update (read nine; write three).
constexpr double kAdvectionBytesPerCell = 8.0 * (2 + 6 + 3 * (6 + 12));

void RayleighBenardStep(benchmark::State& state) {
  using namespace surrox;
  const long nx = state.range(0), nz = state.range(1);
  const io::CaseFile c =
      io::load_case_text("solver: {type: rayleigh_benard}\n", "bench.yaml", apps::run_case_schema(),
                         {"solver.rayleigh=1e6",
                          "solver.cells=[" + std::to_string(nx) + ", " + std::to_string(nz) + "]",
                          "solver.amplitude=0.3", "solver.cfl=0.8"});
  solvers::rayleigh_benard::RayleighBenardSolver<2> solver;
  solver.initialize(c.root.section("solver"), *g_runtime);
  for (int n = 0; n < 20; ++n) solver.advance();  // past the first-step setup
  const auto before = solver.phase_times();
  long steps = 0;
  for (auto _ : state) {
    solver.advance();
    ++steps;
  }
  const auto after = solver.phase_times();
  const double cells = static_cast<double>(nx * nz);
  const double advection = after.at("advection_diffusion") - before.at("advection_diffusion");
  const double pressure = after.at("pressure") - before.at("pressure");
  state.counters["ns_per_cell_step"] = benchmark::Counter(
      cells * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["advection_GBps"] = kAdvectionBytesPerCell * cells * steps / advection * 1e-9;
  state.counters["advection_ns_per_cell_step"] = advection / (cells * steps) * 1e9;
  state.counters["pressure_ns_per_cell_step"] = pressure / (cells * steps) * 1e9;
  state.SetBytesProcessed(static_cast<long>(kAdvectionBytesPerCell * cells) * state.iterations());
}
BENCHMARK(RayleighBenardStep)->Args({512, 128})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  surrox::RuntimeOptions options;
  options.log_level = "warn";
  surrox::Runtime runtime(argc, argv, options);
  g_runtime = &runtime;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
