// ctest-labels: unit regression
// ctest-libraries: surrox_cli
#include "solvers/heat/heat_solver.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "apps/run_case.hpp"
#include "io/case_file.hpp"
#include "support/test_paths.hpp"

namespace surrox::solvers::heat {
namespace {

io::CaseFile heat_case(const std::vector<std::string>& overrides) {
  return io::load_case_text("solver: {type: heat}\n", "heat.yaml", apps::run_case_schema(),
                            overrides);
}

// Runs a heat case to its end time and returns the diagnostics.
Diagnostics run(const std::vector<std::string>& overrides) {
  const io::CaseFile c = heat_case(overrides);
  HeatSolver solver;
  solver.initialize(c.root.section("solver"), surrox::testing::runtime());
  while (!solver.finished()) solver.advance();
  EXPECT_NEAR(solver.time(), c.root.section("solver").real("end_time"), 1e-12);
  return solver.diagnostics();
}

TEST(HeatSolver, ConvergesAtSecondOrderToTheExactSolution) {
  std::vector<double> errors;
  for (int n : {17, 33, 65}) {
    const auto d = run({"solver.grid.points=[" + std::to_string(n) + ", " + std::to_string(n) + "]",
                        "solver.end_time=0.02", "solver.cfl=0.5"});
    errors.push_back(d.at("error_l2_rms"));
  }
  for (std::size_t i = 1; i < errors.size(); ++i) {
    const double order = std::log2(errors[i - 1] / errors[i]);
    EXPECT_NEAR(order, 2.0, 0.1) << "grid " << i << ": errors " << errors[i - 1] << " → "
                                 << errors[i];
  }
  EXPECT_LT(errors.back(), 1e-4);
}

TEST(HeatSolver, ThreeDimensionalModesDecayAtTheExactRate) {
  const auto d = run({"solver.grid.points=[17, 17, 17]", "solver.grid.length=[1, 2, 1]",
                      "solver.modes=[1, 2, 1]", "solver.end_time=0.01"});
  EXPECT_NEAR(d.at("decay_rate"), M_PI * M_PI * 3.0, 1e-9);  // κπ²(1 + 1 + 1)
  EXPECT_LT(d.at("error_max_relative"), 5e-3);
}

TEST(HeatSolver, TimeStepRespectsTheStabilityLimit) {
  const io::CaseFile c = heat_case({"solver.grid.points=[33, 33]", "solver.cfl=1.0"});
  HeatSolver solver;
  solver.initialize(c.root.section("solver"), surrox::testing::runtime());
  solver.advance();
  EXPECT_LE(solver.diagnostics().at("dt"), solver.stable_dt() * (1 + 1e-12));
}

TEST(HeatSolver, RejectsUnstableAndInconsistentInput) {
  try {
    heat_case({"solver.cfl=1.5"});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("solver.cfl: value 1.5 out of range; allowed: (0, 1]"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(heat_case({"solver.diffusivity=0"}), InputError);
  EXPECT_THROW(heat_case({"solver.grid.points=[2, 9]"}), InputError);
  const io::CaseFile c = heat_case({"solver.modes=[1, 1, 1]"});
  HeatSolver solver;
  try {
    solver.initialize(c.root.section("solver"), surrox::testing::runtime());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(
        std::string(e.what()).find("--set solver.modes=[1, 1, 1]: solver.modes: needs one mode"),
        std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace surrox::solvers::heat
