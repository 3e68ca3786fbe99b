// ctest-labels: unit regression
// ctest-libraries: surrox_cli
// ctest-environment: OPENBLAS_CORETYPE=Haswell
// The 2D solver's results pinned bit for bit against tests/golden/rayleigh_benard/*.yaml
// (epsilon 0): a fingerprint (FNV-1a of the bytes) of the ghosted arrays u, w, b, p after a
// short run and of its last figures (Nusselt numbers, energy, divergence), the L2 norm of each
// array, the figures themselves and the time, for a uniform grid with the direct pressure solve,
// a stretched grid from the single mode, and the iterative (CG + GAMG) pressure solve with its
// warm starts. Any change of a bit in the scheme, the projection or the halo exchange changes
// them. The fingerprints and times were computed by the separate 2D solver that preceded
// RayleighBenardSolver<dim> (release build: GCC 12, -O3 for x86-64 without FMA, Kokkos Serial,
// PETSc 3.18, one rank). Other compilers, flags or libraries may round differently: a file's
// epsilon may be raised there (the fingerprint is then not compared, the norms and figures are);
// a change that alters 2D results on purpose regenerates the files
// (SURROX_REGENERATE_GOLDEN=1, tests/support/golden_file.hpp).
// GAMG's setup goes through OpenBLAS, whose kernels follow the CPU (an AVX-512 machine gave
// another fingerprint for the iterative case): the test pins OpenBLAS's Haswell kernels, with
// which the values were computed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "apps/run_case.hpp"
#include "io/case_file.hpp"
#include "solvers/solver.hpp"
#include "support/golden_file.hpp"
#include "support/test_paths.hpp"

namespace surrox::solvers::rayleigh_benard {
namespace {

std::uint64_t fnv1a(std::uint64_t hash, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t n = 0; n < bytes; ++n) hash = (hash ^ p[n]) * 0x100000001b3ull;
  return hash;
}

void expect_golden(std::vector<std::string> overrides, int steps, const std::string& name) {
  // The pins are of the PETSc pressure path (the FFT path is compared with it in
  // rb_fft_pressure_test).
  overrides.push_back("solver.pressure.solver=ksp");
  const io::CaseFile c = io::load_case_text("solver: {type: rayleigh_benard}\n", "golden.yaml",
                                            apps::run_case_schema(), overrides);
  auto solver = registry().create("rayleigh_benard");
  solver->initialize(c.root.section("solver"), surrox::testing::runtime());
  for (int n = 0; n < steps; ++n) solver->advance();
  std::uint64_t hash = 0xcbf29ce484222325ull;
  std::vector<double> norms, figures;
  for (const char* field : {"u", "w", "b", "p"}) {
    auto host =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), solver->state().fields.at(field));
    hash = fnv1a(hash, host.data(), host.size() * sizeof(double));
    double sum = 0;
    for (std::size_t k = 0; k < host.size(); ++k) sum += host.data()[k] * host.data()[k];
    norms.push_back(std::sqrt(sum));
  }
  for (const auto& [figure, value] : solver->monitor()) {
    hash = fnv1a(hash, &value, sizeof value);
    figures.push_back(value);
  }
  surrox::testing::GoldenFile golden("rayleigh_benard/" + name,
                                     "tests/rayleigh_benard/rb_golden_test.cpp, " + name);
  golden.check("time", solver->time());
  golden.check("field_norms", norms);  // u, w, b, p (ghosted arrays)
  golden.check("monitor", figures);    // the monitor's figures in name order
  golden.check_fingerprint("fingerprint", hash);
}

TEST(RayleighBenardGolden, UniformGridDirectPressureSolve) {
  expect_golden({"solver.rayleigh=1e5", "solver.cells=[64, 16]", "solver.amplitude=0.2"}, 30,
                "uniform_direct");
}

TEST(RayleighBenardGolden, StretchedGridSingleMode) {
  expect_golden({"solver.rayleigh=2e4", "solver.cells=[24, 32]", "solver.length=[2, 1]",
                 "solver.initial=mode", "solver.amplitude=0.1", "solver.stretching=1.5"},
                30, "stretched_mode");
}

TEST(RayleighBenardGolden, IterativePressureSolveWithWarmStarts) {
  expect_golden({"solver.rayleigh=1e5", "solver.cells=[32, 16]", "solver.amplitude=0.2",
                 "solver.pressure.ksp_type=cg", "solver.pressure.pc_type=gamg"},
                20, "iterative_warm_starts");
}

}  // namespace
}  // namespace surrox::solvers::rayleigh_benard
