// ctest-labels: regression mpi
// ctest-libraries: surrox_cli
// ctest-pch: torch
// The field family trained by `mpiexec -n 2 surrox train` with training.data_parallel's options:
// the overlapped gradient sum with the sharded optimizer state (ZeRO stage 1) ends with the
// default 2-rank step's losses, and a sharded run stopped and resumed on 2 ranks ends like the
// uninterrupted one.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "support/test_paths.hpp"
#include "training/synthetic_sweep.hpp"

namespace surrox {
namespace {

nlohmann::json field_dp_summary(const std::filesystem::path& dir) {
  std::ifstream in(dir / "summary.json");
  return nlohmann::json::parse(in)["results"];
}

TEST(FieldDataParallel, ShardedOverlappedRunEqualsTheDefaultStepAndResumes) {
  const auto dir = surrox::testing::scratch_dir();
  const auto sweep = training::make_sweep(dir);
  const auto config = dir / "train.yaml";
  std::ofstream(config)
      << "data:\n  path: " << sweep.string()
      << "\n  inputs: [centroid_x, centroid_y]\n  parameters: [solver.alpha_deg]\n"
         "  outputs: [pressure, 'velocity[1]']\n  split: [0.6, 0.2, 0.2]\n"
         "network: {type: mlp, hidden: [16, 16]}\n"
         "training:\n  epochs: 4\n  batch_size: 16\n  checkpoint_interval: 1\n"
         "  clip_grad_norm: 0.5\n";
  const std::string two = "mpiexec --allow-run-as-root --oversubscribe -n 2 " +
                          surrox::testing::surrox_executable().string() + " train " +
                          config.string() + " --threads 1 --log-level warn";
  const std::string sharded =
      " --set 'training.data_parallel={shard_optimizer_state: true, overlap_gradient_sum: true, "
      "bucket_kib: 1}'";
  std::string out;
  for (const auto& [name, extra] : std::vector<std::pair<std::string, std::string>>{
           {"plain", ""}, {"zero", sharded}, {"part", sharded + " --max-epochs 2"}})
    ASSERT_EQ(surrox::testing::run_command(two + " -o " + (dir / name).string() + extra, &out), 0)
        << out;
  ASSERT_EQ(
      surrox::testing::run_command(two + " -o " + (dir / "part").string() + sharded + " --resume " +
                                       (dir / "part" / "checkpoint.pt").string(),
                                   &out),
      0)
      << out;
  const auto plain = field_dp_summary(dir / "plain"), zero = field_dp_summary(dir / "zero"),
             resumed = field_dp_summary(dir / "part");
  EXPECT_EQ(plain["data_parallel_ranks"], 2) << plain.dump();
  for (const char* key : {"final_train_loss", "test_loss"}) {
    const double expected = plain[key].get<double>();
    EXPECT_NEAR(zero[key].get<double>(), expected, 1e-6 * expected) << key;
    EXPECT_EQ(resumed[key].get<double>(), zero[key].get<double>()) << key;
  }
}

}  // namespace
}  // namespace surrox
