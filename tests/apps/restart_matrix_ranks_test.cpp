// ctest-labels: regression mpi slow
// ctest-ranks: 2
// ctest-libraries: surrox_families
// ctest-pch: torch
// ctest-timeout: 900
// The restart matrix on 2 ranks (the cases of restart_matrix_test but the one-rank heat demo):
// checkpoints hold each rank's piece, and a restarted run ends as the straight 2-rank run bit
// for bit.
#include "apps/restart_matrix_cases.hpp"
#include "support/restart_matrix.hpp"

namespace surrox::testing {
namespace {

class RestartMatrixOnTwoRanks : public ::testing::TestWithParam<RestartMatrixCase> {};

TEST_P(RestartMatrixOnTwoRanks, RestartedRunsEndAsTheStraightRun) {
  const RestartMatrixCase& c = GetParam();
  expect_restarts_bitwise(c.run, scratch_dir(), c.stops);
}

INSTANTIATE_TEST_SUITE_P(EverySolver, RestartMatrixOnTwoRanks,
                         ::testing::ValuesIn(restart_matrix_cases_on_ranks()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace surrox::testing
