// STREAM triad a = b + s·c with Kokkos: the memory bandwidth the solver benchmarks quote
// their kernels against (reported as bytes_per_second; 3 arrays × 8 bytes per element).
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>

static void StreamTriad(benchmark::State& state) {
  const long n = state.range(0);
  Kokkos::View<double*> a("a", n), b("b", n), c("c", n);
  Kokkos::deep_copy(b, 1.0);
  Kokkos::deep_copy(c, 2.0);
  const double s = 3.0;
  for (auto _ : state) {
    Kokkos::parallel_for(
        "StreamTriad", n, KOKKOS_LAMBDA(long i) { a(i) = b(i) + s * c(i); });
    Kokkos::fence();
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * n * 3 * static_cast<long>(sizeof(double)));
}
// 2^25 doubles = 256 MiB per array: far beyond any cache.
BENCHMARK(StreamTriad)->Arg(1 << 25)->Unit(benchmark::kMillisecond)->UseRealTime();
