// ctest-labels: unit regression
// ctest-libraries: surrox_cli
// The FFT-in-x, tridiagonal-in-z pressure solver (FftTridiagonalPoissonSolver): on the RB
// problem (periodic x, Neumann walls, a stretched z grid) it solves the same discrete equations
// as PETSc's LU up to the arbitrary constant; in the RB solver it keeps every projection
// divergence-free to round-off and gives the KSP run's Nusselt numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "apps/run_case.hpp"
#include "core/runtime.hpp"
#include "io/case_file.hpp"
#include "solvers/common/fft_tridiagonal_poisson_solver.hpp"
#include "solvers/common/ksp_poisson_solver.hpp"
#include "solvers/rayleigh_benard/rb_solver.hpp"
#include "support/test_paths.hpp"

namespace surrox::solvers::rayleigh_benard {
namespace {

io::CaseFile rb_fft_case(std::vector<std::string> overrides) {
  return io::load_case_text("solver: {type: rayleigh_benard}\n", "rb.yaml", apps::run_case_schema(),
                            overrides);
}

TEST(RbFftPressure, SameSolutionAsKspUpToAConstantOnAStretchedGrid) {
  const io::CaseFile c = rb_fft_case({});
  const DmdaGrid grid(testing::runtime().comm(), 2, {48, 1, 24});
  const WallNormalGrid z(24, 1.5);
  const double hx = 2.0 / 48;
  KspPoissonSolver ksp(grid, z, hx, 1.0, c.root.section("solver").section("pressure"), "t_", 1);
  FftTridiagonalPoissonSolver fft(grid, z, hx, PoissonBoundaries{});
  const Field3 rhs = grid.owned_field("rhs");
  auto r = Kokkos::create_mirror_view(rhs);
  std::mt19937_64 gen(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (std::size_t n = 0; n < r.size(); ++n) r.data()[n] = u(gen);
  Kokkos::deep_copy(rhs, r);
  const Field3 a = grid.ghosted_field("a"), b = grid.ghosted_field("b");
  ASSERT_TRUE(ksp.solve(rhs, a, 0, 0.0).converged);
  ASSERT_TRUE(fft.solve(rhs, b, 0, 0.0).converged);
  // Compare over the whole ghosted box (halo images and wall mirrors too), less the constant.
  const double shift = b(1, 0, 1) - a(1, 0, 1);
  double worst = 0, peak = 0;
  for (long k = 0; k < grid.ghosted(DmdaGrid::kZ); ++k)
    for (long i = 0; i < grid.ghosted(DmdaGrid::kX); ++i) {
      worst = std::max(worst, std::fabs(b(k, 0, i) - a(k, 0, i) - shift));
      peak = std::max(peak, std::fabs(a(k, 0, i)));
    }
  std::cout << "max |phi_fft - phi_ksp - c| / max|phi| = " << worst / peak << "\n";
  EXPECT_LT(worst, 1e-11 * peak);
}

std::unique_ptr<RayleighBenardSolver<2>> make(const std::string& pressure) {
  const io::CaseFile c = rb_fft_case(
      {"solver.rayleigh=1e5", "solver.cells=[64, 16]", "solver.amplitude=0.2", "solver.end_time=2",
       "solver.stretching=1.5", "solver.pressure.solver=" + pressure});
  auto solver = std::make_unique<RayleighBenardSolver<2>>();
  solver->initialize(c.root.section("solver"), testing::runtime());
  return solver;
}

TEST(RbFftPressure, ProjectionsStayDivergenceFreeAndNusseltMatchesKsp) {
  auto fft = make("fft_tridiagonal"), ksp = make("ksp");
  while (!fft->finished()) {
    fft->advance();
    ksp->advance();
    ASSERT_LT(fft->instantaneous().at("max_divergence"), 1e-10) << "step " << fft->step();
  }
  EXPECT_GT(fft->instantaneous().at("u_rms"), 1e-3);
  for (const char* name : {"nu_bottom", "nu_volume", "kinetic_energy"}) {
    const double a = ksp->instantaneous().at(name), b = fft->instantaneous().at(name);
    std::cout << name << ": ksp " << a << ", fft_tridiagonal " << b << "\n";
    EXPECT_NEAR(a, b, 1e-9 * std::fabs(a)) << name;
  }
}

TEST(RbFftPressure, ThreeDimensionalSolverRefusesIt) {
  const io::CaseFile c =
      io::load_case_text("solver: {type: rayleigh_benard_3d}\n", "rb3.yaml",
                         apps::run_case_schema(), {"solver.pressure.solver=fft_tridiagonal"});
  RayleighBenardSolver<3> solver;
  EXPECT_THROW(solver.initialize(c.root.section("solver"), testing::runtime()), InputError);
}

}  // namespace
}  // namespace surrox::solvers::rayleigh_benard
