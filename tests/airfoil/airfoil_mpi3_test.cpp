// ctest-labels: unit mpi
// ctest-ranks: 3
// ctest-libraries: surrox_cli
// The airfoil solver on 3 MPI ranks, where the rows do not split evenly: multigrid coarsens
// fewer levels so that every slab keeps 2 rows on its coarsest level, the residual of a given
// state still equals the one-rank residual, the cycles (LU-SGS wavefront through the middle
// rank) equal the one-rank cycles, a checkpoint restarts into another slab layout, and
// a grid with fewer than 2 rows per rank is bad input naming the case keys.
#include <gtest/gtest.h>

#include <cmath>

#include "apps/run_case.hpp"
#include "io/case_file.hpp"
#include "io/hdf5_checkpoint.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"
#include "support/test_paths.hpp"
#include "tests/airfoil/mpi_support.hpp"
#include "tests/airfoil/test_grids.hpp"

namespace surrox::solvers::airfoil {
namespace {

using testing::Fields;
using testing::parameters;
using testing::relative_difference;
using testing::world;

TEST(AirfoilMpi3, UnevenSlabsCoarsenFewerLevels) {
  // 20 rows: one rank coarsens 20 → 10 → 5 (3 levels); 3 ranks get 8, 6, 6 rows of blocks of 2,
  // 2 levels (3 would leave a rank 1 coarse row).
  const AirfoilSolver::Decomposition d = AirfoilSolver::decompose(40, 20, 3, 4);
  EXPECT_EQ(d.grid_levels, 3);
  EXPECT_EQ(d.levels, 2);
  EXPECT_EQ(d.rows, (std::vector<long>{8, 6, 6}));
  EXPECT_EQ(AirfoilSolver::decompose(40, 20, 3, 1).rows, (std::vector<long>{7, 7, 6}));
  EXPECT_EQ(AirfoilSolver::decompose(40, 20, 1, 4).levels, 3);
  EXPECT_EQ(AirfoilSolver::decompose(64, 32, 3, 4).rows, (std::vector<long>{12, 12, 8}));

  AirfoilSolver solver;
  solver.initialize(parameters(Equations::kEuler), testing::polar_grid(40, 20, 8, 0.05), world());
  EXPECT_EQ(solver.multigrid_levels(), 2);
  EXPECT_EQ(solver.rows(), (std::vector<long>{8, 6, 6})[surrox::testing::runtime().rank()]);
}

TEST(AirfoilMpi3, ResidualOnUnevenSlabsEqualsTheOneRankResidual) {
  const auto grid = testing::polar_grid(40, 20, 8, 0.05);
  for (Equations equations : {Equations::kEuler, Equations::kNavierStokes}) {
    const AirfoilParameters p = parameters(equations);
    AirfoilSolver start;
    start.initialize(p, grid);
    for (int n = 0; n < 20; ++n) start.advance();
    const Fields w = start.primitive_host();
    AirfoilSolver one, three;
    one.initialize(p, grid);
    three.initialize(p, grid, world());
    one.set_initial_primitive(w[0], w[1], w[2], w[3]);
    three.set_initial_primitive(w[0], w[1], w[2], w[3]);
    one.compute_residual();
    three.compute_residual();
    const double difference = relative_difference(three.residual_host(), one.residual_host());
    std::cout << "3 ranks vs 1 rank, max relative residual difference " << difference << "\n";
    EXPECT_LE(difference, 1e-13);
    EXPECT_NEAR(three.coefficients().at("cl"), one.coefficients().at("cl"), 1e-13);
  }
}

// The LU-SGS wavefront through a middle rank, both ways, on slabs of 8, 6 and 6 rows: the same
// iterates as one rank, bit for bit (same multigrid levels on both).
TEST(AirfoilMpi3, CyclesOnUnevenSlabsEqualTheOneRankCycles) {
  const auto grid = testing::polar_grid(40, 20, 8, 0.05);
  for (Equations equations : {Equations::kEuler, Equations::kNavierStokes}) {
    AirfoilParameters p = parameters(equations);
    p.multigrid_levels = 2;
    AirfoilSolver one, three;
    one.initialize(p, grid);
    three.initialize(p, grid, world());
    ASSERT_EQ(three.multigrid_levels(), one.multigrid_levels());
    for (int n = 0; n < 10; ++n) one.advance(), three.advance();
    EXPECT_EQ(relative_difference(three.conservative_host(), one.conservative_host()), 0.0);
    EXPECT_EQ(three.coefficients().at("cl"), one.coefficients().at("cl"));
  }
}

TEST(AirfoilMpi3, CheckpointRestartsIntoAnotherSlabLayout) {
  const auto grid = testing::polar_grid(40, 20, 8, 0.05);
  AirfoilParameters single = parameters(Equations::kEuler);
  single.multigrid_levels = 1;  // slabs of 7, 7, 6 rows
  AirfoilSolver first;
  first.initialize(single, grid, world());
  for (int n = 0; n < 10; ++n) first.advance();
  io::Hdf5Checkpoint saved;
  first.save_state(saved);
  const auto path = surrox::testing::scratch_dir() / "airfoil_checkpoint.h5";
  saved.write(path, world());

  AirfoilSolver resumed;  // 2 levels: slabs of 8, 6, 6 rows
  resumed.initialize(parameters(Equations::kEuler), grid, world());
  ASSERT_NE(AirfoilSolver::decompose(40, 20, 3, 1).rows,
            AirfoilSolver::decompose(40, 20, 3, 4).rows);
  resumed.load_state(io::Hdf5Checkpoint::read(path, world()));
  EXPECT_EQ(resumed.step(), 10);
  EXPECT_EQ(relative_difference(resumed.conservative_host(), first.conservative_host()), 0.0);
}

TEST(AirfoilMpi3, TooFewRowsPerRankIsAnInputError) {
  // C++: 4 rows over 3 ranks.
  try {
    AirfoilSolver solver;
    solver.initialize(parameters(Equations::kEuler), testing::polar_grid(16, 4, 8), world());
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cells_normal"), std::string::npos) << what;
    EXPECT_NE(what.find("3 MPI ranks"), std::string::npos) << what;
  }
  // A case file (too few rows to build the grid at all): the error names the mesh section and
  // the keys, before the grid is built.
  const io::CaseFile c =
      io::load_case_text("solver: {type: airfoil}\n", "airfoil.yaml", apps::run_case_schema(),
                         {"solver.mesh.cells_around=32", "solver.mesh.cells_normal=4",
                          "solver.mesh.first_cell_height=5e-3"});
  try {
    AirfoilSolver solver;
    solver.initialize(c.root.section("solver"), surrox::testing::runtime());
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (surrox::testing::runtime().root()) std::cout << what << "\n";
    EXPECT_NE(what.find("solver.mesh"), std::string::npos) << what;
    EXPECT_NE(what.find("cells_normal"), std::string::npos) << what;
    EXPECT_NE(what.find("multigrid_levels"), std::string::npos) << what;
    EXPECT_EQ(e.exit_code(), ExitCode::kBadInput);
  }
}

}  // namespace
}  // namespace surrox::solvers::airfoil
