// Google Benchmark entry point inside a surrox Runtime (MPI, Kokkos, PETSc, torch threads).
#include <benchmark/benchmark.h>

#include "core/runtime.hpp"

int main(int argc, char** argv) {
  surrox::RuntimeOptions options;
  options.log_level = "warn";
  surrox::Runtime runtime(argc, argv, options);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
