// ctest-labels: unit
// ctest-libraries: surrox_training
// ctest-pch: torch
// The one training loop with a task of its own (a least-squares fit of one weight): units,
// checkpoints every interval, a pause and an exact resume, and a task whose loss turns
// non-finite stopped with its last good checkpoint named.
#include "training/training_loop.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "support/test_paths.hpp"

namespace surrox::training {
namespace {

struct OneWeight : torch::nn::Module {
  torch::Tensor w = register_parameter("w", torch::zeros({1}, torch::kFloat64));
};

// Fits w to 3 by SGD on (w − 3)²; the loss is NaN from unit `nan_from` on.
class FitThree final : public TrainingTask {
 public:
  FitThree(OneWeight& model, long units, long nan_from = -1)
      : model_(model), units_(units), nan_from_(nan_from) {}
  long units() const override { return units_; }
  const char* unit_name() const override { return "round"; }
  long units_done() const override { return done_; }
  double last_loss() const override { return loss_; }
  double last_learning_rate() const override { return 0.1; }
  void train_unit(long unit, OptimizerStep& step) override {
    step.set_learning_rate(0.1);
    step.step([&] {
      const torch::Tensor loss = (model_.w - 3).square().sum();
      loss.backward();
      loss_ = unit >= nan_from_ && nan_from_ >= 0 ? NAN : loss.item<double>();
    });
    done_ = unit + 1;
  }
  void save(torch::serialize::OutputArchive& a) const override {
    a.write("done", torch::tensor(static_cast<std::int64_t>(done_)));
  }
  void load(torch::serialize::InputArchive& a, const std::string&) override {
    torch::Tensor t;
    a.read("done", t);
    done_ = t.item<long>();
  }

 private:
  OneWeight& model_;
  long units_, nan_from_, done_ = 0;
  double loss_ = 0;
};

TrainingLoopOptions sgd_options(const std::filesystem::path& checkpoint) {
  TrainingLoopOptions o;
  o.optimizer = [](std::vector<torch::Tensor> p) {
    return std::make_unique<torch::optim::SGD>(std::move(p), torch::optim::SGDOptions(0.1));
  };
  o.checkpoint_interval = 2;
  o.checkpoint = checkpoint;
  return o;
}

TEST(TrainingLoop, PausedAndResumedEqualsStraight) {
  const auto dir = surrox::testing::scratch_dir();
  const auto parallel = single_process();
  OneWeight straight;
  FitThree all(straight, 7);
  const auto done = run_training(straight, all, *parallel, sgd_options(dir / "a/checkpoint.pt"));
  EXPECT_EQ(done.units_trained, 7);
  EXPECT_NEAR(straight.w.item<double>(), 3 * (1 - std::pow(0.8, 7)), 1e-12);

  OneWeight split;
  FitThree first(split, 7);
  auto options = sgd_options(dir / "b/checkpoint.pt");
  options.stop_after = 3;
  const auto paused = run_training(split, first, *parallel, options);
  EXPECT_TRUE(paused.paused);
  EXPECT_EQ(paused.units_trained, 3);
  OneWeight resumed;
  FitThree rest(resumed, 7);
  options.stop_after = 0;
  options.resume = dir / "b/checkpoint.pt";
  const auto finished = run_training(resumed, rest, *parallel, options);
  EXPECT_EQ(finished.units_trained, 4);
  EXPECT_EQ(resumed.w.item<double>(), straight.w.item<double>());
}

TEST(TrainingLoop, ANonFiniteLossStopsWithTheLastGoodCheckpoint) {
  const auto dir = surrox::testing::scratch_dir();
  const auto parallel = single_process();
  OneWeight model;
  FitThree task(model, 10, 4);  // units 0–3 fine (checkpoints after 2 and 4), then NaN
  try {
    run_training(model, task, *parallel, sgd_options(dir / "checkpoint.pt"));
    FAIL() << "no Error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("training diverged in round 5"), std::string::npos) << what;
    EXPECT_NE(what.find("last good checkpoint is " + (dir / "checkpoint.pt").string()),
              std::string::npos)
        << what;
  }
  // The in-memory loop stops the same way, without a checkpoint to name.
  OneWeight online;
  FitThree updates(online, 3, 1);
  OptimizerStep step(online.parameters(), sgd_options({}).optimizer, *parallel, {});
  EXPECT_THROW(run_units(updates, step), Error);
}

TEST(TrainingLoop, AMissingOrForeignCheckpointIsBadInput) {
  const auto dir = surrox::testing::scratch_dir();
  const auto parallel = single_process();
  OneWeight model;
  FitThree task(model, 2);
  auto options = sgd_options(dir / "checkpoint.pt");
  options.resume = dir / "missing.pt";
  EXPECT_THROW(run_training(model, task, *parallel, options), InputError);
  std::ofstream(dir / "junk.pt") << "junk";
  options.resume = dir / "junk.pt";
  EXPECT_THROW(run_training(model, task, *parallel, options), InputError);
}

}  // namespace
}  // namespace surrox::training
