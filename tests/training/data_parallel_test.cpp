// ctest-labels: mpi unit
// ctest-ranks: 2
// ctest-libraries: surrox_training surrox_io
// ctest-pch: torch
// Data parallelism over a c10d Gloo process group: bucketed gradient sums, and the same global
// batch trained on 2 ranks giving the 1-rank result within floating-point tolerance.
#include <gtest/gtest.h>

#include "core/runtime.hpp"
#include "io/case_file.hpp"
#include "support/test_paths.hpp"
#include "training/gloo_data_parallel.hpp"
#include "training/trainer.hpp"

namespace surrox::training {
namespace {

CaseNode training_section(const std::vector<std::string>& overrides) {
  Schema root("test");
  root.section("training", Trainer::schema(), "training");
  static std::vector<io::CaseFile> keep;
  keep.push_back(io::load_case_text("training: {}\n", "train.yaml", root, overrides));
  return keep.back().root.section("training");
}

struct Mlp final : surrogates::Network {
  torch::nn::Sequential net{nullptr};
  Mlp() {
    net = register_module("net", torch::nn::Sequential(torch::nn::Linear(3, 24), torch::nn::Tanh(),
                                                       torch::nn::Linear(24, 2)));
    to(torch::kFloat64);
  }
  torch::Tensor forward(const torch::Tensor& x) override { return net->forward(x); }
};

TEST(DataParallel, BucketedSumOverRanks) {
  Runtime& runtime = testing::runtime();
  ASSERT_EQ(runtime.size(), 2);
  // 64-byte buckets: every tensor below lands in its own or a shared small bucket.
  auto parallel = gloo_data_parallel(runtime.comm(), 64);
  ASSERT_EQ(parallel->size(), 2);
  std::vector<torch::Tensor> grads;
  for (long n : {1, 5, 7, 3, 16})
    grads.push_back(torch::full({n}, static_cast<double>(runtime.rank() + 1), torch::kFloat64));
  grads.push_back(torch::arange(12, torch::kFloat32).reshape({3, 4}) * (runtime.rank() + 1));
  parallel->sum_gradients(grads);
  for (std::size_t i = 0; i + 1 < grads.size(); ++i) EXPECT_TRUE(torch::all(grads[i] == 3.0).item<bool>()) << i;
  EXPECT_TRUE(torch::equal(grads.back(), torch::arange(12, torch::kFloat32).reshape({3, 4}) * 3));
  EXPECT_DOUBLE_EQ(parallel->sum(0.5 + runtime.rank()), 2.0);
}

TEST(DataParallel, TwoRanksTrainLikeOne) {
  Runtime& runtime = testing::runtime();
  const std::vector<std::string> config = {"training.epochs=4", "training.batch_size=50",
                                           "training.optimizer={type: adam, lr: 1e-2}",
                                           "training.loss={type: area_weighted_mse}"};
  torch::manual_seed(11);
  auto x = torch::rand({300, 3}, torch::kFloat64);
  auto y = torch::stack({x.sum(1).sin(), x.prod(1)}, 1);
  const TensorSet train{x, y, torch::rand({300}, torch::kFloat64) + 0.5};
  const TensorSet valid = train.slice(0, 60);

  // One rank's run, computed on each rank alone.
  torch::manual_seed(5);
  Mlp one;
  const auto dir = testing::scratch_dir();
  const TrainResult alone =
      Trainer(training_section(config), single_process()).fit(one, train, valid, dir / ("one" + std::to_string(runtime.rank())));
  // The same global batches split over the two ranks.
  torch::manual_seed(5);
  Mlp two;
  const TrainResult split =
      Trainer(training_section(config), gloo_data_parallel(runtime.comm())).fit(two, train, valid, dir / "two");
  ASSERT_EQ(split.history.size(), alone.history.size());
  for (std::size_t e = 0; e < alone.history.size(); ++e) {
    EXPECT_NEAR(split.history[e].train_loss, alone.history[e].train_loss, 1e-12 * alone.history[e].train_loss);
    EXPECT_NEAR(split.history[e].validation_loss, alone.history[e].validation_loss,
                1e-12 * alone.history[e].validation_loss);
  }
  auto a = one.parameters(), b = two.parameters();
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_LT((a[i] - b[i]).abs().max().item<double>(), 1e-10) << "parameter " << i;
}

}  // namespace
}  // namespace surrox::training
