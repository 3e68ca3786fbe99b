// ctest-labels: unit
// ctest-libraries: surrox_couplers
// How the warm-start comparison counts a run (couplers/steady_run.hpp): cycles to engineering
// accuracy are counted from the last excursion outside the tolerances, and the solve time at a
// cycle is the time after that many cycles.
#include "couplers/steady_run.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace surrox::couplers {
namespace {

TEST(SteadyRunCounts, CyclesToAccuracyCountFromTheLastExcursion) {
  SteadyRun run{solvers::ResidualLevels(1e-8)};
  // Within tolerance at cycle 2, out again at 3, within from 4 on.
  run.cl_history = {0.30, 0.50005, 0.5003, 0.50002, 0.5};
  run.cd_history = {0.01, 0.010001, 0.01, 0.010002, 0.01};
  run.seconds = {1, 2, 3, 4, 5};
  EXPECT_EQ(cycles_to_accuracy(run, 0.5, 0.01), 4);
  EXPECT_EQ(seconds_at(run, 4), 4.0);
  EXPECT_TRUE(std::isnan(seconds_at(run, -1)));
  run.cd_history.back() = 0.0101;  // the last cycle misses: never
  EXPECT_EQ(cycles_to_accuracy(run, 0.5, 0.01), -1);
}

}  // namespace
}  // namespace surrox::couplers
