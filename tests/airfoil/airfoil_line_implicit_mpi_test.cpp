// ctest-labels: unit mpi
// ctest-ranks: 2
// ctest-libraries: surrox_solvers
// The line-implicit smoother over 2 MPI ranks: the lines cross the slab edge. Solved whole
// (exact_across_ranks), the block Thomas steps run over the ranks one after the other, so 2
// ranks give the one-rank iterates bit for bit, Euler (slip wall, Roe's dissipation) and
// laminar (no-slip, spectral radius), with either coarse-grid correction at the wall
// (solver.multigrid_wall), and with the Anderson acceleration of the cycle (its inner products
// summed per grid row in global row order). Cut at the edge (the default), 2 ranks take other
// iterates to the one-rank solution in a few more cycles. A restart with the acceleration on
// continues bit for bit (its history is in the checkpoint).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "io/hdf5_checkpoint.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"
#include "support/test_paths.hpp"
#include "tests/airfoil/converged_run.hpp"
#include "tests/airfoil/mpi_support.hpp"
#include "tests/airfoil/naca_test_grid.hpp"
#include "tests/airfoil/test_grids.hpp"

namespace surrox::solvers::airfoil {
namespace {

void expect_line_one_rank_iterates(Equations equations,
                                   MultigridWall wall = MultigridWall::kOneSided,
                                   long acceleration_depth = 0) {
  const auto jk = testing::joukowski_grid(64, 32, -0.1, 0.05, 10);
  AirfoilParameters p = testing::parameters(equations);
  p.smoother = "line_implicit";
  p.smoother_options["exact_across_ranks"] = 1;
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

// Cut lines (the default): the laminar case of the acceleration test converges on 2 ranks to
// the one-rank solution (10 orders; Cl, Cd within 1e-7) in at most a quarter more cycles
// (measured: 315 against 317), by other iterates than the whole lines'.
TEST(AirfoilLineImplicitMpi2, CutLinesConvergeToTheOneRankSolution) {
  AirfoilParameters p = testing::laminar_naca0012_parameters();
  p.residual_drop = 1e-10;  // 10 orders: the two stops' scatter well inside the tolerance
  const mesh::CurvilinearGrid grid = testing::naca0012_grid(5e-4);
  AirfoilParameters exact = p;
  exact.smoother_options["exact_across_ranks"] = 1;
  AirfoilSolver one, cut, whole;
  one.initialize(exact, grid);
  cut.initialize(p, grid, testing::world());
  whole.initialize(exact, grid, testing::world());
  for (int n = 0; n < 20; ++n) cut.advance(), whole.advance();
  EXPECT_GT(testing::relative_difference(cut.conservative_host(), whole.conservative_host()), 1e-8);
  const testing::ConvergedRun a = testing::finish(one), b = testing::finish(cut);
  std::printf("cycles to the stop: one rank %ld, 2 ranks with cut lines %ld; ΔCl %.2e, ΔCd %.2e\n",
              a.cycles, b.cycles, b.cl - a.cl, b.cd - a.cd);
  ASSERT_TRUE(a.converged);
  ASSERT_TRUE(b.converged);
  EXPECT_LE(b.cycles, 1.25 * a.cycles);
  EXPECT_NEAR(b.cl, a.cl, 1e-7);
  EXPECT_NEAR(b.cd, a.cd, 1e-7);
}

// The acceleration's history travels in the checkpoint: 20 + 10 cycles from a checkpoint equal
// 30 straight ones bit for bit (cut lines, 2 ranks, the factors refactored at cycle 20 in both);
// the same checkpoint without the history continues to other bits.
TEST(AirfoilLineImplicitMpi2, RestartWithAndersonAccelerationIsBitwise) {
  const auto jk = testing::joukowski_grid(64, 32, -0.1, 0.05, 10);
  for (Equations equations : {Equations::kEuler, Equations::kNavierStokes}) {
    AirfoilParameters p = testing::parameters(equations);
    p.smoother = "line_implicit";
    p.multigrid_wall = MultigridWall::kMirror;
    p.cfl_ramp = 5;
    p.acceleration_depth = 6;
    p.acceleration_start = 1;  // the case files' start: on from cycle 5
    AirfoilSolver reference;
    reference.initialize(p, jk.grid, testing::world());
    for (int n = 0; n < 30; ++n) reference.advance();

    AirfoilSolver first;
    first.initialize(p, jk.grid, testing::world());
    for (int n = 0; n < 20; ++n) first.advance();
    io::Hdf5Checkpoint saved;
    first.save_state(saved);
    const auto path = surrox::testing::scratch_dir() / "airfoil_anderson_checkpoint.h5";
    saved.write(path, testing::world());
    io::Hdf5Checkpoint without = io::Hdf5Checkpoint::read(path, testing::world());
    ASSERT_EQ(without.scalars.count("acceleration_count"), 1u);
    auto& arrays = without.arrays;
    arrays.erase(std::remove_if(
                     arrays.begin(), arrays.end(),
                     [](const io::NamedArray& a) { return a.name.rfind("acceleration_", 0) == 0; }),
                 arrays.end());

    AirfoilSolver resumed, fresh;
    resumed.initialize(p, jk.grid, testing::world());
    resumed.load_state(io::Hdf5Checkpoint::read(path, testing::world()));
    fresh.initialize(p, jk.grid, testing::world());
    fresh.load_state(without);
    for (int n = 0; n < 10; ++n) resumed.advance(), fresh.advance();
    EXPECT_EQ(resumed.step(), 30);
    EXPECT_EQ(resumed.residual(), reference.residual());
    EXPECT_EQ(
        testing::relative_difference(resumed.conservative_host(), reference.conservative_host()),
        0.0);
    EXPECT_GT(
        testing::relative_difference(fresh.conservative_host(), reference.conservative_host()),
        1e-10);
  }
}

}  // namespace
}  // namespace surrox::solvers::airfoil
