// ctest-labels: unit
// ctest-libraries: surrox_cli
// The streamfunction inversion of the QG solver, ∇²ψ = ω with ψ = 0 on the walls of [0, 1] ×
// [−1, 1]: FFTW's sine-transform solver against the closed-form ψ = eˣ sin(πx) sin(π(y + 1)/2)
// (second-order convergence over three grids), and against PETSc KSP on the same discrete
// problem (the same answer to round-off).
#include <gtest/gtest.h>

#include <cmath>

#include "apps/run_case.hpp"
#include "core/runtime.hpp"
#include "io/case_file.hpp"
#include "solvers/common/fft_poisson_solver.hpp"
#include "solvers/common/fft_tridiagonal_poisson_solver.hpp"
#include "solvers/common/ksp_poisson_solver.hpp"
#include "support/test_paths.hpp"

namespace surrox::solvers {
namespace {

double exact_psi(double x, double y) {
  return std::exp(x) * std::sin(M_PI * x) * std::sin(M_PI * (y + 1) / 2);
}
double exact_omega(double x, double y) {  // ∇² of exact_psi
  const double g = std::exp(x) * std::sin(M_PI * x);
  const double gxx =
      std::exp(x) * ((1 - M_PI * M_PI) * std::sin(M_PI * x) + 2 * M_PI * std::cos(M_PI * x));
  const double h = std::sin(M_PI * (y + 1) / 2);
  return gxx * h - g * h * M_PI * M_PI / 4;
}

struct Solved {
  double max_error = 0, max_psi = 0;
  std::vector<double> psi;  // owned nodes, (y, x) row-major
};

// Solves on nx × ny intervals of [0, 1] × [−1, 1] with the named solver.
Solved solve(long nx, long ny, const std::string& which) {
  const io::CaseFile c =
      io::load_case_text("solver: {type: qg}\n", "qg.yaml", apps::run_case_schema(), {});
  const CaseNode options = c.root.section("solver").section("poisson");
  const DmdaGrid grid(testing::runtime().comm(), 2, {nx - 1, 1, ny - 1}, false);
  const double hx = 1.0 / static_cast<double>(nx), hy = 2.0 / static_cast<double>(ny);
  const WallNormalGrid z(ny - 1, 0.0);
  const double hx_scaled = z.dz(0) * hx / hy;
  const PoissonBoundaries sides{PoissonSide::kDirichlet, PoissonSide::kDirichlet};
  std::unique_ptr<PoissonSolver> poisson;
  if (which == "fft")
    poisson = std::make_unique<FftPoissonSolver>(grid, z, hx_scaled, sides);
  else if (which == "fft_tridiagonal")
    poisson = std::make_unique<FftTridiagonalPoissonSolver>(grid, z, hx_scaled, sides);
  else
    poisson = std::make_unique<KspPoissonSolver>(grid, z, hx_scaled, 1.0, options, "t_", 1, sides);
  const Field3 rhs = grid.owned_field("rhs"), psi = grid.ghosted_field("psi");
  auto r = Kokkos::create_mirror_view(rhs);
  const long xs = grid.start(DmdaGrid::kX), zs = grid.start(DmdaGrid::kZ);
  const long xm = grid.owned(DmdaGrid::kX), zm = grid.owned(DmdaGrid::kZ);
  for (long k = 0; k < zm; ++k)
    for (long i = 0; i < xm; ++i)
      r(k, 0, i) = -hx * hy * exact_omega((xs + i + 1) * hx, -1 + (zs + k + 1) * hy);
  Kokkos::deep_copy(rhs, r);
  EXPECT_TRUE(poisson->solve(rhs, psi, 0, 0.0).converged);
  auto p = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), psi);
  Solved out;
  const long ox = grid.offset(DmdaGrid::kX), oz = grid.offset(DmdaGrid::kZ);
  for (long k = 0; k < zm; ++k)
    for (long i = 0; i < xm; ++i) {
      const double e = exact_psi((xs + i + 1) * hx, -1 + (zs + k + 1) * hy);
      out.max_error = std::max(out.max_error, std::fabs(p(k + oz, 0, i + ox) - e));
      out.max_psi = std::max(out.max_psi, std::fabs(e));
      out.psi.push_back(p(k + oz, 0, i + ox));
    }
  // The walls come back as 0 (the Dirichlet ghosts).
  if (xs == 0) {
    EXPECT_EQ(p(oz, 0, ox - 1), 0.0);
  }
  if (zs == 0) {
    EXPECT_EQ(p(oz - 1, 0, ox), 0.0);
  }
  return out;
}

TEST(QgPoisson, FftSolverConvergesAtSecondOrderToTheClosedForm) {
  double previous = 0;
  for (long n : {16, 32, 64}) {
    const Solved s = solve(n, 2 * n, "fft");
    const double error = s.max_error / s.max_psi;
    std::cout << n << " x " << 2 * n << ": relative max error " << error;
    if (previous > 0) {
      const double order = std::log2(previous / error);
      std::cout << ", order " << order;
      EXPECT_GT(order, 1.9);
      EXPECT_LT(order, 2.1);
    }
    std::cout << "\n";
    previous = error;
  }
  EXPECT_LT(previous, 1e-3);
}

TEST(QgPoisson, FftFftTridiagonalAndKspSolveTheSameDiscreteProblem) {
  // Non-square spacing (hx ≠ hy) and sizes whose n + 1 is not a power of two.
  const Solved ksp = solve(30, 44, "ksp");
  for (const char* which : {"fft", "fft_tridiagonal"}) {
    const Solved fft = solve(30, 44, which);
    ASSERT_EQ(fft.psi.size(), ksp.psi.size());
    double worst = 0;
    for (std::size_t n = 0; n < fft.psi.size(); ++n)
      worst = std::max(worst, std::fabs(fft.psi[n] - ksp.psi[n]));
    std::cout << which << ": max |psi - psi_ksp| / max|psi| = " << worst / fft.max_psi << "\n";
    EXPECT_LT(worst, 1e-12 * fft.max_psi) << which;
    EXPECT_GT(fft.max_error, 1e-6);  // both carry the same, nonzero discretisation error
    EXPECT_NEAR(fft.max_error, ksp.max_error, 1e-12) << which;
  }
}

TEST(QgPoisson, FftSolverRefusesOtherBoundaries) {
  const DmdaGrid grid(testing::runtime().comm(), 2, {16, 1, 8});
  const WallNormalGrid z(8, 0.0);
  EXPECT_THROW(FftPoissonSolver(grid, z, 0.1, PoissonBoundaries{}), Error);
}

}  // namespace
}  // namespace surrox::solvers
