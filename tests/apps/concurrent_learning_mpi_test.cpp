// ctest-labels: mpi regression
// ctest-ranks: 2
// ctest-libraries: surrox_families
// ctest-pch: torch
// Concurrent learning on 2 ranks: the models and the explorations are spread over the ranks
// (one rank each) and the labelling runs on both, and every figure of every iteration equals the
// same loop run on one rank; `start_with` adds a temperature per iteration.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "apps/concurrent_learning.hpp"
#include "core/runtime.hpp"
#include "families/builtin_families.hpp"
#include "io/case_file.hpp"
#include "support/test_paths.hpp"

namespace surrox::apps {
namespace {
namespace fs = std::filesystem;

TEST(ConcurrentLearningMpi, TwoRanksEqualOne) {
  Runtime& runtime = testing::runtime();
  ASSERT_EQ(runtime.size(), 2);
  const fs::path dir = testing::scratch_dir();
  if (runtime.root()) {
    std::string log;
    for (const auto& [name, t] : {std::pair<std::string, int>{"init", 300}, {"held", 900}})
      ASSERT_EQ(
          testing::run_surrox(
              "run " + (testing::source_dir() / "cases/deep_potential/si_reference.yaml").string() +
                  " -o " + (dir / name).string() +
                  " --log-level warn --set solver.steps=120 --set solver.deepmd.first=20"
                  " --set solver.deepmd.every=10 --set solver.integrator.temperature=" +
                  std::to_string(t),
              &log),
          0)
          << log;
  }
  MPI_Barrier(runtime.comm());
  const std::vector<std::string> set = {
      "data.initial=[" + (dir / "init/deepmd").string() + "]",
      "data.validation=[" + (dir / "held/deepmd").string() + "]",
      "iterations=2",
      "training.models=2",
      "training.set=[\"model.three_body={}\", training.steps=20, training.disp_freq=10]",
      "training.reuse_set=[training.steps=10]",
      "exploration.temperatures=[600, 900, 1200]",
      "exploration.start_with=2",
      "exploration.steps=40",
      "exploration.first_step=10",
      "selection.lo=0",
      "selection.hi=1e9",
      "selection.max_candidates=5"};
  const io::CaseFile config =
      io::load_case(testing::source_dir() / "cases/deep_potential/si_concurrent.yml",
                    concurrent_learning_schema(), set);
  families::register_builtin_families();  // the deep_potential family, as the executable has it
  const nlohmann::json two = run_concurrent_learning(runtime, config, dir / "two");
  EXPECT_EQ(runtime.comm(), MPI_COMM_WORLD);  // the per-job communicator scopes have ended
  // Model 1 and the 900 K run were rank 1's.
  EXPECT_TRUE(fs::exists(dir / "two/iter.000/train.1/model.pt"));
  EXPECT_TRUE(fs::exists(dir / "two/iter.000/explore/T900/model_devi.csv"));
  if (!runtime.root()) return;
  CommunicatorScope one_rank(runtime, MPI_COMM_SELF);
  const nlohmann::json one = run_concurrent_learning(runtime, config, dir / "one");
  ASSERT_EQ(two["iterations"].size(), 2u);
  ASSERT_EQ(one["iterations"].size(), 2u);
  for (int it = 0; it < 2; ++it) {
    const auto &a = one["iterations"][it], &b = two["iterations"][it];
    for (const char* key : {"training_frames", "explored_rows", "candidates", "labelled_frames"})
      EXPECT_EQ(a[key], b[key]) << "iteration " << it << " " << key;
    for (const char* key : {"training_force_rmse", "held_out_force_rmse",
                            "held_out_energy_rmse_per_atom", "candidate_fraction"})
      EXPECT_NEAR(a[key].get<double>(), b[key].get<double>(), 1e-9 * std::abs(a[key].get<double>()))
          << "iteration " << it << " " << key;
  }
  EXPECT_EQ(two["iterations"][0]["labelled_frames"], 5);
  // start_with 2: the first iteration explores 600 and 900 K, the second all three.
  EXPECT_EQ(two["iterations"][0]["explored"].size(), 2u);
  EXPECT_EQ(two["iterations"][0]["explored_rows"], 8);
  EXPECT_EQ(two["iterations"][1]["explored"].size(), 3u);
  EXPECT_EQ(two["iterations"][1]["explored"][2]["temperature"], 1200.0);
  EXPECT_EQ(two["iterations"][1]["explored_rows"], 12);
}

}  // namespace
}  // namespace surrox::apps
