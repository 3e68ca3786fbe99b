// ctest-labels: mpi unit
// ctest-ranks: 2
// ctest-libraries: surrox_training surrox_io
// ctest-pch: torch
// The data_parallel options of the Trainer on 2 ranks: the gradient sum overlapped with the
// backward pass (hooks start the buckets before the pass ends) and the optimizer state sharded
// over the ranks (ZeRO stage 1) train like the default step and like one rank with the same
// global batch, to round-off, with gradient clipping (clip_grad_norm 0.05) and a parameter that
// gets no gradient, through MPI and through the Gloo process group; a sharded run stopped and
// resumed continues the uninterrupted one bit for bit; a sharded checkpoint is refused on
// another rank count or without sharding, with the reason.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/runtime.hpp"
#include "support/test_paths.hpp"
#include "training/collective_data_parallel.hpp"
#include "training/gradient_buckets.hpp"
#include "training/trainer.hpp"
#include "training_section.hpp"

namespace surrox::training {
namespace {

// Three layers and a parameter the forward pass never uses, listed first (a module's own
// parameters precede its children's): it shares the last bucket with the first layer, which
// can only start once the pass is over.
struct ZeroMlp final : surrogates::Network {
  torch::nn::Linear first{nullptr}, middle{nullptr}, last{nullptr};
  torch::Tensor unused;
  ZeroMlp() {
    first = register_module("first", torch::nn::Linear(3, 24));
    unused = register_parameter("unused", torch::zeros({5}));
    middle = register_module("middle", torch::nn::Linear(24, 24));
    last = register_module("last", torch::nn::Linear(24, 2));
    to(torch::kFloat64);
  }
  torch::Tensor forward(const torch::Tensor& x) override {
    return last->forward(torch::tanh(middle->forward(torch::tanh(first->forward(x)))));
  }
};

struct ZeroRun {
  TrainResult result;
  std::vector<torch::Tensor> parameters;
};

const std::vector<std::string> kZeroBase = {
    "training.epochs=4", "training.batch_size=50", "training.clip_grad_norm=0.05",
    "training.optimizer={type: adam, lr: 1e-2}", "training.checkpoint_interval=1"};

TensorSet zero_problem() {
  torch::manual_seed(11);
  auto x = torch::rand({300, 3}, torch::kFloat64);
  return {x, torch::stack({x.sum(1).sin(), x.prod(1)}, 1), torch::Tensor()};
}

ZeroRun zero_train(const std::string& parallel, std::unique_ptr<DataParallel> backend,
                   const std::filesystem::path& dir, long stop_after = 0,
                   const std::optional<std::filesystem::path>& resume = std::nullopt,
                   std::uint64_t weights_seed = 5) {
  std::vector<std::string> config = kZeroBase;
  if (!parallel.empty()) config.push_back("training.data_parallel={" + parallel + "}");
  const TensorSet train = zero_problem();
  torch::manual_seed(weights_seed);
  ZeroMlp net;
  ZeroRun run;
  run.result = Trainer(training_section(config), std::move(backend))
                   .fit(net, train, train.slice(0, 60), dir, resume, stop_after);
  for (const auto& p : net.parameters()) run.parameters.push_back(p.detach().clone());
  return run;
}

std::unique_ptr<DataParallel> zero_two_ranks() {
  return collective_data_parallel(surrox::testing::runtime().comm());
}

double zero_largest_difference(const ZeroRun& a, const ZeroRun& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.parameters.size(); ++i)
    worst = std::max(worst, (a.parameters[i] - b.parameters[i]).abs().max().item<double>());
  return worst;
}

void expect_zero_same_losses(const ZeroRun& a, const ZeroRun& b, double relative) {
  ASSERT_EQ(a.result.history.size(), b.result.history.size());
  for (std::size_t e = 0; e < a.result.history.size(); ++e) {
    EXPECT_NEAR(a.result.history[e].train_loss, b.result.history[e].train_loss,
                relative * a.result.history[e].train_loss)
        << "epoch " << e + 1;
    EXPECT_NEAR(a.result.history[e].validation_loss, b.result.history[e].validation_loss,
                relative * a.result.history[e].validation_loss)
        << "epoch " << e + 1;
  }
}

TEST(ZeroOverlapTraining, OverlappedAndShardedStepsEqualTheDefaultStepAndOneRank) {
  Runtime& runtime = surrox::testing::runtime();
  ASSERT_EQ(runtime.size(), 2);
  const auto dir = surrox::testing::scratch_dir();
  const ZeroRun plain = zero_train("", zero_two_ranks(), dir / "plain");
  // The weights moved: a step that lost its gradients would show.
  torch::manual_seed(5);
  ZeroMlp start;
  EXPECT_GT((start.parameters()[1] - plain.parameters[1]).abs().max().item<double>(), 1e-3);
  // 1 KiB buckets: several per step, the smallest holding a single bias.
  for (const std::string options :
       {"overlap_gradient_sum: true, bucket_kib: 1", "shard_optimizer_state: true, bucket_kib: 1",
        "shard_optimizer_state: true, overlap_gradient_sum: true, bucket_kib: 1",
        "shard_optimizer_state: true"}) {
    const ZeroRun other = zero_train(options, zero_two_ranks(), dir / "other");
    EXPECT_LT(zero_largest_difference(plain, other), 1e-12) << options;
    expect_zero_same_losses(plain, other, 1e-12);
  }
  // Through the Gloo process group (the path of device memory): the blocking defaults of
  // DataParallel, the all-gather as a sum of zero-padded parts.
  DataParallelOptions gloo;
  gloo.host_transport = HostTransport::kProcessGroup;
  const ZeroRun through_gloo =
      zero_train("shard_optimizer_state: true, overlap_gradient_sum: true, bucket_kib: 1",
                 collective_data_parallel(runtime.comm(), gloo), dir / "gloo");
  EXPECT_LT(zero_largest_difference(plain, through_gloo), 1e-12);
  expect_zero_same_losses(plain, through_gloo, 1e-12);
  // One rank alone with the same global batch (the Trainer's promise for the default step).
  const ZeroRun sharded = zero_train("shard_optimizer_state: true, overlap_gradient_sum: true",
                                     zero_two_ranks(), dir / "sharded");
  const ZeroRun alone = zero_train("shard_optimizer_state: true", single_process(),
                                   dir / ("alone" + std::to_string(runtime.rank())));
  EXPECT_LT(zero_largest_difference(alone, sharded), 1e-10);
  expect_zero_same_losses(alone, sharded, 1e-10);
  // Each rank holds about half of the optimizer state (Adam: two moments per element).
  EXPECT_LT(sharded.result.optimizer_state_bytes, 0.65 * plain.result.optimizer_state_bytes);
  EXPECT_GT(sharded.result.optimizer_state_bytes, 0.35 * plain.result.optimizer_state_bytes);
}

TEST(ZeroOverlapTraining, ShardedRunResumesExactlyAndOnlyOnItsRankCount) {
  Runtime& runtime = surrox::testing::runtime();
  const auto dir = surrox::testing::scratch_dir();
  const std::string sharded = "shard_optimizer_state: true, overlap_gradient_sum: true";
  const ZeroRun whole = zero_train(sharded, zero_two_ranks(), dir / "whole");
  const ZeroRun part = zero_train(sharded, zero_two_ranks(), dir / "split", 2);
  ASSERT_EQ(part.result.history.size(), 2u);
  const auto checkpoint = dir / "split" / "checkpoint.pt";
  // Other initial weights: the checkpoint must restore the weights and both shards' state.
  const ZeroRun rest = zero_train(sharded, zero_two_ranks(), dir / "split", 0, checkpoint, 99);
  ASSERT_EQ(rest.result.history.size(), whole.result.history.size());
  for (std::size_t e = 0; e < whole.result.history.size(); ++e) {
    EXPECT_EQ(rest.result.history[e].train_loss, whole.result.history[e].train_loss) << e;
    EXPECT_EQ(rest.result.history[e].validation_loss, whole.result.history[e].validation_loss);
  }
  EXPECT_EQ(zero_largest_difference(whole, rest), 0.0);

  auto refused = [&](const std::string& options, std::unique_ptr<DataParallel> backend,
                     const std::filesystem::path& resume, const std::string& reason) {
    try {
      zero_train(options, std::move(backend), dir / ("refused" + std::to_string(runtime.rank())), 0,
                 resume);
      ADD_FAILURE() << options << ": resumed";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
    }
  };
  // Sharded over 2 ranks: not on one rank, not without sharding.
  refused(sharded, single_process(), checkpoint, "sharded over 2 ranks");
  refused("", zero_two_ranks(), checkpoint, "shard_optimizer_state: true");
  // A whole state is not split.
  zero_train("", zero_two_ranks(), dir / "plain", 1);
  refused(sharded, zero_two_ranks(), dir / "plain" / "checkpoint.pt", "is whole");
}

// Counts the buckets started, one rank: the order and timing of the hooks.
struct ZeroCountingParallel final : DataParallel {
  int started = 0;
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void sum_gradients(std::vector<torch::Tensor>&) override {}
  double sum(double value) override { return value; }
  void start_sum(const torch::Tensor&) override { ++started; }
};

TEST(ZeroOverlapBuckets, HooksStartEveryBucketDuringTheBackwardPass) {
  torch::manual_seed(3);
  torch::nn::Sequential net(torch::nn::Linear(3, 16), torch::nn::Tanh(), torch::nn::Linear(16, 16),
                            torch::nn::Tanh(), torch::nn::Linear(16, 2));
  auto parameters = net->parameters();
  std::int64_t numel = 0;
  for (const auto& p : parameters) numel += p.numel();
  const torch::Tensor flat = torch::zeros({numel});
  std::int64_t offset = 0;
  for (auto& p : parameters) {
    p.mutable_grad() = flat.slice(0, offset, offset + p.numel()).view_as(p);
    offset += p.numel();
  }
  for (const bool overlap : {true, false}) {
    ZeroCountingParallel parallel;
    // 256 B: the 16 × 16 weight alone, each 16-float bias with its neighbours.
    GradientBuckets buckets(parameters, parallel, {256, overlap, false});
    ASSERT_GE(buckets.buckets(), 3u);
    buckets.begin_step();
    net->forward(torch::rand({8, 3})).square().sum().backward();
    EXPECT_EQ(parallel.started, overlap ? static_cast<int>(buckets.buckets()) : 0);
    buckets.finish_gradients();
    EXPECT_EQ(parallel.started, static_cast<int>(buckets.buckets()));
    // Outside a step (hooks removed or inactive) nothing starts.
    const int before = parallel.started;
    net->forward(torch::rand({8, 3})).sum().backward();
    EXPECT_EQ(parallel.started, before);
  }
}

}  // namespace
}  // namespace surrox::training
