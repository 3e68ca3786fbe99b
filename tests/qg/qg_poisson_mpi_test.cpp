// ctest-labels: mpi unit
// ctest-ranks: 3
// ctest-libraries: surrox_cli
// The distributed transform solves on 3 ranks (the DMDA's blocks moved to z slabs and back; the
// sine transform by FFTW's MPI transforms, the transform + tridiagonal solver with FFTW's
// distributed transpose between its row transforms and its column solves): the same discrete
// problem as PETSc KSP's LU on the same ranks to round-off, on grids whose rows split unevenly
// over the ranks and whose slabs and blocks do not line up.
#include <gtest/gtest.h>

#include <cmath>

#include "qg/qg_poisson_solve.hpp"

namespace surrox::solvers {
namespace {

TEST(QgPoissonMpi, DistributedFftSolversSolveTheKspProblem) {
  int ranks = 1, rank = 0;
  MPI_Comm_size(testing::runtime().comm(), &ranks);
  MPI_Comm_rank(testing::runtime().comm(), &rank);
  EXPECT_EQ(ranks, 3);
  for (const auto& [nx, ny] : {std::pair<long, long>{30, 44}, {17, 23}, {64, 128}}) {
    const qg_poisson::Solved ksp = qg_poisson::solve(nx, ny, "ksp");
    for (const char* which : {"fft", "fft_tridiagonal"}) {
      const qg_poisson::Solved fft = qg_poisson::solve(nx, ny, which);
      ASSERT_EQ(fft.psi.size(), ksp.psi.size());
      double worst = 0, peak = 0;
      for (std::size_t n = 0; n < fft.psi.size(); ++n) {
        worst = std::max(worst, std::fabs(fft.psi[n] - ksp.psi[n]));
        peak = std::max(peak, std::fabs(ksp.psi[n]));
      }
      double global[2] = {worst, peak}, out[2];
      MPI_Allreduce(global, out, 2, MPI_DOUBLE, MPI_MAX, testing::runtime().comm());
      if (rank == 0)
        std::cout << which << ", " << nx << " x " << ny
                  << ": max |psi - psi_ksp| / max|psi| = " << out[0] / out[1] << "\n";
      EXPECT_LT(out[0], 1e-12 * out[1]) << which << ", " << nx << " x " << ny;
    }
  }
}

}  // namespace
}  // namespace surrox::solvers
