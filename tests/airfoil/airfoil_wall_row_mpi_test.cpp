// ctest-labels: unit mpi
// ctest-ranks: 2
// ctest-libraries: surrox_solvers
// The lusgs option wall_mirror over 2 MPI ranks: the wall row lies on rank 0 alone, so the
// pipelined sweeps give the one-rank iterates bit for bit, Euler (slip wall) and laminar
// (no-slip), as without the option (airfoil_mpi_test.cpp).
#include <gtest/gtest.h>

#include "solvers/airfoil/airfoil_solver.hpp"
#include "tests/airfoil/mpi_support.hpp"
#include "tests/airfoil/test_grids.hpp"

namespace surrox::solvers::airfoil {
namespace {

void expect_one_rank_iterates(Equations equations) {
  const auto jk = testing::joukowski_grid(64, 32, -0.1, 0.05, 10);
  AirfoilParameters p = testing::parameters(equations);
  p.smoother_options["wall_mirror"] = 2;
  AirfoilSolver one, two;
  one.initialize(p, jk.grid);
  two.initialize(p, jk.grid, testing::world());
  for (int n = 0; n < 40; ++n) one.advance(), two.advance();
  EXPECT_EQ(testing::relative_difference(two.conservative_host(), one.conservative_host()), 0.0);
}

TEST(AirfoilWallRowMpi2, MirrorGhostEulerEqualsOneRankBitwise) {
  expect_one_rank_iterates(Equations::kEuler);
}

TEST(AirfoilWallRowMpi2, MirrorGhostLaminarEqualsOneRankBitwise) {
  expect_one_rank_iterates(Equations::kNavierStokes);
}

}  // namespace
}  // namespace surrox::solvers::airfoil
