// ctest-labels: mpi unit
// ctest-ranks: 2
// ctest-libraries: surrox_training surrox_io
// ctest-pch: torch
// The deep_potential family trained data parallel (12 steps): 2 ranks, each taking its share of
// every global batch's frames with the gradients summed, give the weights, metrics.csv losses and
// final metrics of 1 rank with the same batch_size, to 1e-10 (the order of floating-point sums
// differs); with an even and an odd split of the batch.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/runtime.hpp"
#include "deep_potential_training_support.hpp"
#include "surrogates/deep_potential/model_file.hpp"

namespace surrox::training {
namespace {
namespace fs = std::filesystem;
using namespace dp_test;

// metrics.csv's train_loss column.
std::vector<double> dp_train_losses(const fs::path& p) {
  std::ifstream in(p);
  std::vector<double> out;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    const auto a = line.find(','), b = line.find(',', a + 1);
    out.push_back(std::stod(line.substr(a + 1, b - a - 1)));
  }
  return out;
}

void expect_two_ranks_equal_one(long batch_size) {
  Runtime& runtime = surrox::testing::runtime();
  ASSERT_EQ(runtime.size(), 2);
  const fs::path dir = surrox::testing::scratch_dir();
  if (runtime.root()) {
    write_dp_frames(dir / "train", 16, 5);
    write_dp_frames(dir / "held", 6, 6);
  }
  MPI_Barrier(runtime.comm());
  const std::string text = dp_config_text(dir / "train", dir / "held");
  const std::vector<std::string> set = {"training.batch_size=" + std::to_string(batch_size),
                                        "training.steps=12", "training.disp_freq=4"};
  const fs::path one = dir / ("one_rank" + std::to_string(runtime.rank()));
  nlohmann::json single;
  {
    CommunicatorScope alone(runtime, MPI_COMM_SELF);
    single = dp_train(text, one, set);
  }
  const nlohmann::json both = dp_train(text, dir / "two_ranks", set);
  MPI_Barrier(runtime.comm());
  EXPECT_EQ(single["data_parallel_ranks"], 1);
  EXPECT_EQ(both["data_parallel_ranks"], 2);

  namespace dp = surrogates::deep_potential;
  auto a = dp::load_model(one / "model.pt"), b = dp::load_model(dir / "two_ranks/model.pt");
  double worst = 0, largest = 0;
  const auto pa = a->parameters(), pb = b->parameters();
  for (std::size_t i = 0; i < pa.size(); ++i) {
    worst = std::max(worst, (pa[i] - pb[i]).abs().max().item<double>());
    largest = std::max(largest, pa[i].abs().max().item<double>());
  }
  EXPECT_LT(worst, 1e-10 * largest);
  // The run moved the weights away from their start: a broken gradient sum would show.
  dp::SeE2aModel start(a->config());
  EXPECT_GT((start->parameters()[0] - pa[0]).abs().max().item<double>(), 1e-4);
  const auto la = dp_train_losses(one / "metrics.csv"),
             lb = dp_train_losses(dir / "two_ranks/metrics.csv");
  ASSERT_EQ(la.size(), 3u);
  ASSERT_EQ(la.size(), lb.size());
  for (std::size_t i = 0; i < la.size(); ++i) EXPECT_NEAR(la[i], lb[i], 1e-9 * std::fabs(la[i]));
  for (const char* split : {"train", "validation"})
    for (const char* key : {"energy_rmse_per_atom", "force_rmse", "virial_rmse_per_atom"}) {
      const double x = single[split][key], y = both[split][key];
      EXPECT_NEAR(x, y, 1e-10 * std::fabs(x)) << split << " " << key;
    }
  EXPECT_EQ(single["validation"]["frames"], both["validation"]["frames"]);
  if (runtime.root())
    std::printf(
        "batch %ld: 2 ranks vs 1: max |Δw| = %.3g (max |w| %.3g), final loss %.10g vs %.10g\n",
        batch_size, worst, largest, la.back(), lb.back());
}

TEST(DeepPotentialDataParallel, TwoRanksEqualOneEvenSplit) { expect_two_ranks_equal_one(4); }

TEST(DeepPotentialDataParallel, TwoRanksEqualOneOddSplit) { expect_two_ranks_equal_one(3); }

}  // namespace
}  // namespace surrox::training
