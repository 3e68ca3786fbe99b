// ctest-labels: regression
// ctest-libraries: surrox_cli
// ctest-pch: torch
// `pair: {type: deep}`: 200 NVE steps (0.5 fs, 64 silicon atoms at ~600 K) on an untrained
// se_e2_a model conserve the total energy. Regression, not unit: a few seconds of MD.
#include <gtest/gtest.h>

#include "deep_potential_pair_support.hpp"

namespace surrox::couplers {
namespace {
using namespace dp_pair_test;

TEST(DeepPotentialPairNve, NveConservesEnergy) {
  const auto path = (surrox::testing::scratch_dir() / "model.pt").string();
  write_pair_test_model(path, 1);
  auto solver = md::test::make_solver(pair_test_case("model: '" + path + "'", 200));
  while (!solver->finished()) solver->advance();
  const auto d = solver->diagnostics();
  std::printf("NVE, 200 steps of 0.5 fs at ~600 K: max |ΔE_total|/|E_total| = %.3g\n",
              d.at("energy_drift_max_relative"));
  EXPECT_LT(d.at("energy_drift_max_relative"), 1e-4);
}

}  // namespace
}  // namespace surrox::couplers
