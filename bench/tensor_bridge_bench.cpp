// The Kokkos→torch bridge against the per-call copy it replaces (what DeePMD-kit does: copy
// the host array into a std::vector, then into a tensor). Side by side in one process:
// compare `ZeroCopy` with `CopyThroughVector` at the same size; the ratio is the point.
#include <benchmark/benchmark.h>

#include <vector>

#include "surrogates/tensor_bridge.hpp"

using Field = Kokkos::View<double**, Kokkos::LayoutRight>;

static void ZeroCopy(benchmark::State& state) {
  Field f("f", state.range(0), 3);
  Kokkos::deep_copy(f, 1.0);
  for (auto _ : state) {
    torch::Tensor t = surrox::surrogates::as_tensor(f);
    benchmark::DoNotOptimize(t.data_ptr());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

static void CopyThroughVector(benchmark::State& state) {
  Field f("f", state.range(0), 3);
  Kokkos::deep_copy(f, 1.0);
  for (auto _ : state) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
    std::vector<double> buffer(host.data(), host.data() + host.size());
    torch::Tensor t = torch::from_blob(buffer.data(), {state.range(0), 3}, torch::kFloat64).clone();
    benchmark::DoNotOptimize(t.data_ptr());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

BENCHMARK(ZeroCopy)->Arg(1 << 10)->Arg(1 << 20);
BENCHMARK(CopyThroughVector)->Arg(1 << 10)->Arg(1 << 20);
