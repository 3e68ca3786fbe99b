// ctest-labels: regression slow
// ctest-libraries: surrox_families
// ctest-pch: torch
// ctest-timeout: 900
// The restart matrix on one rank: every solver with restarts stopped at steps of different
// kinds and restarted into its folder ends as the straight run, bit for bit
// (support/restart_matrix.hpp says what is compared; apps/restart_matrix_cases.hpp the cases).
#include "support/restart_matrix.hpp"

#include "apps/restart_matrix_cases.hpp"

namespace surrox::testing {
namespace {

class RestartMatrix : public ::testing::TestWithParam<RestartMatrixCase> {};

TEST_P(RestartMatrix, RestartedRunsEndAsTheStraightRun) {
  const RestartMatrixCase& c = GetParam();
  expect_restarts_bitwise(c.run, scratch_dir(), c.stops);
}

INSTANTIATE_TEST_SUITE_P(EverySolver, RestartMatrix, ::testing::ValuesIn(restart_matrix_cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace surrox::testing
