// ctest-labels: regression mpi
// ctest-ranks: 2
// ctest-libraries: surrox_families
// ctest-pch: torch
// The field family trained by `surrox train` on 2 ranks (run in this process on the test's
// runtime) with training.data_parallel's options: the overlapped gradient sum with the sharded
// optimizer state (ZeRO stage 1) ends with the default 2-rank step's losses, and a sharded run
// stopped and resumed on 2 ranks ends like the uninterrupted one.
#include <gtest/gtest.h>
#include <mpi.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/runtime.hpp"
#include "support/in_process_surrox.hpp"
#include "support/test_paths.hpp"
#include "training/synthetic_sweep.hpp"

namespace surrox {
namespace {

nlohmann::json field_dp_summary(const std::filesystem::path& dir) {
  std::ifstream in(dir / "summary.json");
  return nlohmann::json::parse(in)["results"];
}

TEST(FieldDataParallel, ShardedOverlappedRunEqualsTheDefaultStepAndResumes) {
  Runtime& runtime = testing::runtime();
  ASSERT_EQ(runtime.size(), 2);
  const auto dir = testing::scratch_dir();
  const auto config = dir / "train.yaml";
  if (runtime.root()) {  // the data and the config, written once; both ranks read them
    const auto sweep = training::make_sweep(dir);
    std::ofstream(config)
        << "data:\n  path: " << sweep.string()
        << "\n  inputs: [centroid_x, centroid_y]\n  parameters: [solver.alpha_deg]\n"
           "  outputs: [pressure, 'velocity[1]']\n  split: [0.6, 0.2, 0.2]\n"
           "network: {type: mlp, hidden: [16, 16]}\n"
           "training:\n  epochs: 4\n  batch_size: 16\n  checkpoint_interval: 1\n"
           "  clip_grad_norm: 0.5\n";
  }
  MPI_Barrier(runtime.comm());
  const std::vector<std::string> sharded = {
      "--set",
      "training.data_parallel={shard_optimizer_state: true, overlap_gradient_sum: true, "
      "bucket_kib: 1}"};
  // `train CONFIG --threads 1 --log-level warn -o DIR/NAME`, then `more`, on both ranks; each
  // run returns after a barrier (the resume reads rank 0's last checkpoint on both ranks).
  const auto train = [&](const std::string& name, const std::vector<std::string>& more) {
    std::vector<std::string> args = {"train", config.string(),      "--threads",
                                     "1",     "--log-level",        "warn",
                                     "-o",    (dir / name).string()};
    args.insert(args.end(), more.begin(), more.end());
    return testing::run_surrox_in_process(args);
  };
  std::vector<std::string> part = sharded;
  part.insert(part.end(), {"--max-epochs", "2"});
  std::vector<std::string> resume = sharded;
  resume.insert(resume.end(), {"--resume", (dir / "part" / "checkpoint.pt").string()});
  for (const auto& [name, extra] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"plain", {}}, {"zero", sharded}, {"part", part}})
    ASSERT_EQ(train(name, extra), 0) << name;
  ASSERT_EQ(train("part", resume), 0);
  if (!runtime.root()) return;
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
