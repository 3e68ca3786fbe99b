// ctest-labels: unit mpi
// ctest-ranks: 2
// ctest-libraries: surrox_cli
// The airfoil solver runs on one rank: on two it refuses with a bad-input error naming the
// solver section (sweeps spread their cases over ranks instead).
#include <gtest/gtest.h>

#include "apps/run_case.hpp"
#include "io/case_file.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"
#include "support/test_paths.hpp"

namespace surrox::solvers::airfoil {
namespace {

TEST(AirfoilMpi, MoreThanOneRankIsAnInputError) {
  const io::CaseFile c =
      io::load_case_text("solver: {type: airfoil}\n", "airfoil.yaml", apps::run_case_schema(),
                         {"solver.mesh.cells_around=32", "solver.mesh.cells_normal=16",
                          "solver.mesh.first_cell_height=5e-3"});
  AirfoilSolver solver;
  try {
    solver.initialize(c.root.section("solver"), surrox::testing::runtime());
    FAIL() << "expected an InputError on 2 ranks";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("one MPI rank"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace surrox::solvers::airfoil
