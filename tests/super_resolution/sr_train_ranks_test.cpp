// ctest-labels: unit mpi slow
// ctest-ranks: 2
// ctest-libraries: surrox_families
// ctest-pch: torch
// `surrox train` with family super_resolution on 2 ranks, run in this process on the test's
// runtime: the same global batch gives the 1-rank losses; training.data_parallel's overlapped,
// sharded step gives the default step's losses and resumes exactly; its checkpoint is refused on
// one rank. The 1-rank runs compared with go on rank 0 alone (MPI_COMM_SELF).
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "core/runtime.hpp"
#include "super_resolution/sr_train_config.hpp"
#include "support/in_process_surrox.hpp"
#include "support/test_paths.hpp"

namespace fs = std::filesystem;
using surrox::testing::run_surrox_in_process;
using surrox::testing::scratch_dir;
using surrox::testing::sr_config;
using surrox::testing::sr_loss_columns;
using surrox::testing::sr_results;

namespace {

// `train CONFIG --threads 1 --log-level warn --set training.epochs=2 -o OUT`, then `more`.
std::vector<std::string> sr_ranks_train(const fs::path& config, const fs::path& out,
                                        const std::vector<std::string>& more = {}) {
  std::vector<std::string> args = {"train",       config.string(), "--threads", "1",
                                   "--log-level", "warn",          "--set",     "training.epochs=2",
                                   "-o",          out.string()};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// training.data_parallel: the overlapped gradient sum with the optimizer state sharded.
const std::vector<std::string> kSrRanksSharded = {
    "--set",
    "training.data_parallel={shard_optimizer_state: true, overlap_gradient_sum: true, "
    "bucket_kib: 1}"};

std::vector<std::string> sr_ranks_joined(std::vector<std::string> a,
                                         const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

TEST(SuperResolutionTrainingRanks, TwoRanksEqualOneRankWithTheSameGlobalBatch) {
  surrox::Runtime& runtime = surrox::testing::runtime();
  ASSERT_EQ(runtime.size(), 2);
  const fs::path dir = scratch_dir();
  const fs::path config = dir / "ranks.yaml";
  if (runtime.root()) sr_config(dir, "ranks");  // the tiny runs are made on rank 0 only
  MPI_Barrier(runtime.comm());
  ASSERT_EQ(run_surrox_in_process(sr_ranks_train(config, dir / "two")), 0);
  if (!runtime.root()) return;
  {
    surrox::CommunicatorScope one_rank(runtime, MPI_COMM_SELF);
    ASSERT_EQ(run_surrox_in_process(sr_ranks_train(config, dir / "one")), 0);
  }
  // The same losses up to the order of floating-point sums over ranks.
  const auto one = sr_loss_columns(dir / "one" / "metrics.csv");
  const auto two = sr_loss_columns(dir / "two" / "metrics.csv");
  ASSERT_EQ(one.size(), 4u);
  ASSERT_EQ(two.size(), one.size());
  for (std::size_t i = 0; i < one.size(); ++i) EXPECT_NEAR(two[i], one[i], 1e-5 * one[i]) << i;
}

// training.data_parallel on 2 ranks: the overlapped gradient sum with the optimizer state sharded
// (ZeRO stage 1) gives the default step's losses; a sharded run stopped after one epoch and
// resumed on 2 ranks continues it exactly; its checkpoint is refused on one rank (exit 2).
TEST(SuperResolutionTrainingRanks, ShardedOverlappedTwoRankRunEqualsTheDefaultAndResumesExactly) {
  surrox::Runtime& runtime = surrox::testing::runtime();
  ASSERT_EQ(runtime.size(), 2);
  const fs::path dir = scratch_dir();
  const fs::path config = dir / "zero.yaml";
  if (runtime.root()) sr_config(dir, "zero");
  MPI_Barrier(runtime.comm());
  const std::string checkpoint = (dir / "part" / "checkpoint.pt").string();
  // Each run returns after a barrier: the resume reads rank 0's last checkpoint on both ranks.
  ASSERT_EQ(run_surrox_in_process(sr_ranks_train(config, dir / "plain")), 0);
  ASSERT_EQ(run_surrox_in_process(sr_ranks_train(config, dir / "zero", kSrRanksSharded)), 0);
  ASSERT_EQ(run_surrox_in_process(sr_ranks_train(
                config, dir / "part", sr_ranks_joined(kSrRanksSharded, {"--max-epochs", "1"}))),
            0);
  ASSERT_EQ(run_surrox_in_process(sr_ranks_train(
                config, dir / "part", sr_ranks_joined(kSrRanksSharded, {"--resume", checkpoint}))),
            0);
  if (!runtime.root()) return;
  const auto plain = sr_loss_columns(dir / "plain" / "metrics.csv");
  const auto zero = sr_loss_columns(dir / "zero" / "metrics.csv");
  const auto resumed = sr_loss_columns(dir / "part" / "metrics.csv");
  ASSERT_EQ(plain.size(), 4u);
  ASSERT_EQ(zero.size(), plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i)
    EXPECT_NEAR(zero[i], plain[i], 1e-6 * plain[i]) << i;
  EXPECT_EQ(resumed, zero);
  // Rank 0 holds about half of the optimizer state.
  const double whole = sr_results(dir / "plain").at("optimizer_state_bytes").get<double>();
  EXPECT_LT(sr_results(dir / "zero").at("optimizer_state_bytes").get<double>(), 0.6 * whole);
  // The sharded checkpoint on one rank: refused with the reason (rank 0 alone, so the failure
  // returns its exit code instead of ending the job).
  surrox::CommunicatorScope one_rank(runtime, MPI_COMM_SELF);
  std::string log;
  EXPECT_EQ(run_surrox_in_process(
                sr_ranks_joined({"train", config.string(), "-o", (dir / "one").string(),
                                 "--log-level", "warn", "--set", "training.epochs=2"},
                                sr_ranks_joined(kSrRanksSharded, {"--resume", checkpoint})),
                &log),
            2);
  EXPECT_NE(log.find("sharded over 2 ranks"), std::string::npos) << log;
}
