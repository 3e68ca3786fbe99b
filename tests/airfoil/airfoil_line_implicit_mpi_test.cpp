// ctest-labels: unit mpi
// ctest-ranks: 2
// ctest-libraries: surrox_solvers
// The line-implicit smoother over 2 MPI ranks: the lines cross the slab edge, and the block
// Thomas steps run over the ranks one after the other, so 2 ranks give the one-rank iterates
// bit for bit, Euler (slip wall, Roe's dissipation) and laminar (no-slip, spectral radius), with
// either coarse-grid correction at the wall (solver.multigrid_wall), and with the Anderson
// acceleration of the cycle (its inner products summed per grid row in global row order).
#include <gtest/gtest.h>

#include "solvers/airfoil/airfoil_solver.hpp"
#include "tests/airfoil/mpi_support.hpp"
#include "tests/airfoil/test_grids.hpp"

namespace surrox::solvers::airfoil {
namespace {

void expect_line_one_rank_iterates(Equations equations,
                                   MultigridWall wall = MultigridWall::kOneSided,
                                   long acceleration_depth = 0) {
  const auto jk = testing::joukowski_grid(64, 32, -0.1, 0.05, 10);
  AirfoilParameters p = testing::parameters(equations);
  p.smoother = "line_implicit";
  p.multigrid_wall = wall;
  if (acceleration_depth > 0) {  // on after a 5-cycle ramp, for 25 of the 30 cycles
    p.cfl_ramp = 5;
    p.acceleration_depth = acceleration_depth;
  }
  AirfoilSolver one, two;
  one.initialize(p, jk.grid);
  two.initialize(p, jk.grid, testing::world());
  for (int n = 0; n < 30; ++n) one.advance(), two.advance();
  EXPECT_GT(one.residual(), 0.0);
  EXPECT_EQ(testing::relative_difference(two.conservative_host(), one.conservative_host()), 0.0);
}

TEST(AirfoilLineImplicitMpi2, EulerEqualsOneRankBitwise) {
  expect_line_one_rank_iterates(Equations::kEuler);
}

TEST(AirfoilLineImplicitMpi2, LaminarEqualsOneRankBitwise) {
  expect_line_one_rank_iterates(Equations::kNavierStokes);
}

// The mirrored coarse-grid correction at the wall (the case files' default) is the wall rank's
// alone: 2 ranks still give the one-rank iterates.
TEST(AirfoilLineImplicitMpi2, MirroredWallCorrectionEqualsOneRankBitwise) {
  expect_line_one_rank_iterates(Equations::kEuler, MultigridWall::kMirror);
  expect_line_one_rank_iterates(Equations::kNavierStokes, MultigridWall::kMirror);
}

TEST(AirfoilLineImplicitMpi2, AndersonAccelerationEqualsOneRankBitwise) {
  expect_line_one_rank_iterates(Equations::kEuler, MultigridWall::kMirror, 6);
  expect_line_one_rank_iterates(Equations::kNavierStokes, MultigridWall::kMirror, 6);
  // The acceleration was on: its iterates differ from the plain cycle's.
  const auto jk = testing::joukowski_grid(64, 32, -0.1, 0.05, 10);
  AirfoilParameters p = testing::parameters(Equations::kEuler);
  p.smoother = "line_implicit";
  p.cfl_ramp = 5;
  AirfoilSolver plain, accelerated;
  plain.initialize(p, jk.grid);
  p.acceleration_depth = 6;
  accelerated.initialize(p, jk.grid);
  for (int n = 0; n < 30; ++n) plain.advance(), accelerated.advance();
  EXPECT_GT(
      testing::relative_difference(accelerated.conservative_host(), plain.conservative_host()),
      1e-8);
}

}  // namespace
}  // namespace surrox::solvers::airfoil
