// ctest-labels: unit regression
// ctest-libraries: surrox_cli
// ctest-environment: OPENBLAS_CORETYPE=Haswell
// The 2D solver's results pinned bit for bit: a fingerprint (FNV-1a of the bytes) of the ghosted
// arrays u, w, b, p after a short run and of its last figures (Nusselt numbers, energy,
// divergence), and its time, written out exactly (hex floats), for a uniform grid with the direct
// pressure solve, a stretched grid from the single mode, and the iterative (CG + GAMG) pressure
// solve with its warm starts. Any change of a bit in the scheme, the projection or the halo
// exchange changes them. The values are what this test prints, computed by the separate 2D
// solver that preceded RayleighBenardSolver<dim> (release build: GCC 12, -O3 for x86-64 without
// FMA, Kokkos Serial, PETSc 3.18, one rank). Other compilers, flags or libraries may round
// differently; a change that alters 2D results on purpose replaces them with the new printout.
// GAMG's setup goes through OpenBLAS, whose kernels follow the CPU (an AVX-512 machine gave
// another fingerprint for the iterative case): the test pins OpenBLAS's Haswell kernels, with
// which the values were computed.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>

#include "apps/run_case.hpp"
#include "io/case_file.hpp"
#include "solvers/solver.hpp"
#include "support/test_paths.hpp"

namespace surrox::solvers::rayleigh_benard {
namespace {

struct Pinned {
  std::uint64_t fingerprint;
  double time;
};

std::uint64_t fnv1a(std::uint64_t hash, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t n = 0; n < bytes; ++n) hash = (hash ^ p[n]) * 0x100000001b3ull;
  return hash;
}

Pinned run(std::vector<std::string> overrides, int steps) {
  // The pins are of the PETSc pressure path (the FFT path is compared with it in
  // rb_fft_pressure_test).
  overrides.push_back("solver.pressure.solver=ksp");
  const io::CaseFile c = io::load_case_text("solver: {type: rayleigh_benard}\n", "golden.yaml",
                                            apps::run_case_schema(), overrides);
  auto solver = registry().create("rayleigh_benard");
  solver->initialize(c.root.section("solver"), surrox::testing::runtime());
  for (int n = 0; n < steps; ++n) solver->advance();
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const char* name : {"u", "w", "b", "p"}) {
    auto host =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), solver->state().fields.at(name));
    hash = fnv1a(hash, host.data(), host.size() * sizeof(double));
  }
  for (const auto& [name, value] : solver->monitor()) hash = fnv1a(hash, &value, sizeof value);
  const Pinned pinned{hash, solver->time()};
  std::printf("fingerprint 0x%016" PRIx64 "ull, time %a\n", pinned.fingerprint, pinned.time);
  return pinned;
}

void expect_pinned(const Pinned& now, const Pinned& then) {
  EXPECT_EQ(now.fingerprint, then.fingerprint);
  EXPECT_EQ(now.time, then.time);
}

TEST(RayleighBenardGolden, UniformGridDirectPressureSolve) {
  expect_pinned(run({"solver.rayleigh=1e5", "solver.cells=[64, 16]", "solver.amplitude=0.2"}, 30),
                {0xb2d60a0a74814bf4ull, 0x1.8000000000003p+0});
}

TEST(RayleighBenardGolden, StretchedGridSingleMode) {
  expect_pinned(run({"solver.rayleigh=2e4", "solver.cells=[24, 32]", "solver.length=[2, 1]",
                     "solver.initial=mode", "solver.amplitude=0.1", "solver.stretching=1.5"},
                    30),
                {0x62162b193c136814ull, 0x1.cfb17b15d4636p-3});
}

TEST(RayleighBenardGolden, IterativePressureSolveWithWarmStarts) {
  expect_pinned(run({"solver.rayleigh=1e5", "solver.cells=[32, 16]", "solver.amplitude=0.2",
                     "solver.pressure.ksp_type=cg", "solver.pressure.pc_type=gamg"},
                    20),
                {0x7fccad75fcfe4863ull, 0x1.0000000000001p+0});
}

}  // namespace
}  // namespace surrox::solvers::rayleigh_benard
