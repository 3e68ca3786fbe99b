// ctest-labels: unit
// ctest-libraries: surrox_cli
// The streamfunction inversion of the QG solver, ∇²ψ = ω with ψ = 0 on the walls of [0, 1] ×
// [−1, 1]: FFTW's sine-transform solver against the closed-form ψ = eˣ sin(πx) sin(π(y + 1)/2)
// (second-order convergence over three grids), and against PETSc KSP on the same discrete
// problem (the same answer to round-off).
#include <gtest/gtest.h>

#include <cmath>

#include "qg/qg_poisson_solve.hpp"

namespace surrox::solvers {
namespace {

using qg_poisson::solve;
using qg_poisson::Solved;

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
