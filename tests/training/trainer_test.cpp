// ctest-labels: unit
// ctest-libraries: surrox_training surrox_io
// ctest-pch: torch
// The trainer and its registries: losses (area weights), schedules (closed forms, plateau),
// training that learns, early stopping, bad input, and the exact resume from a checkpoint.
#include "training/trainer.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "core/error.hpp"
#include "io/case_file.hpp"
#include "support/test_paths.hpp"
#include "training/loss.hpp"
#include "training/lr_schedule.hpp"
#include "training_section.hpp"

namespace surrox::training {
namespace {

// y = (sin 2x₀ + x₁², x₀·x₁) on [-1, 1]²: smooth, nonlinear, two outputs.
TensorSet problem(long rows, std::uint64_t seed) {
  torch::manual_seed(seed);
  auto x = torch::rand({rows, 2}, torch::kFloat64) * 2 - 1;
  auto y = torch::stack(
      {torch::sin(2 * x.select(1, 0)) + x.select(1, 1).square(), x.select(1, 0) * x.select(1, 1)},
      1);
  return {x, y, torch::rand({rows}, torch::kFloat64) + 0.5};
}

struct Mlp final : surrogates::Network {
  torch::nn::Sequential net{nullptr};
  Mlp() {
    net = register_module("net", torch::nn::Sequential(torch::nn::Linear(2, 32), torch::nn::Tanh(),
                                                       torch::nn::Linear(32, 32), torch::nn::Tanh(),
                                                       torch::nn::Linear(32, 2)));
    to(torch::kFloat64);
  }
  torch::Tensor forward(const torch::Tensor& x) override { return net->forward(x); }
};

std::unique_ptr<Mlp> model(std::uint64_t seed) {
  torch::manual_seed(seed);
  return std::make_unique<Mlp>();
}

// The validated loss section of a training config with these overrides.
std::unique_ptr<Loss> configured_loss(const std::vector<std::string>& overrides) {
  const CaseNode section = training_section(overrides).section("loss");
  return losses().at(section.type()).make(section);
}

TEST(Loss, AreaWeightedEqualsMseForUniformWeightsAndWeighsPoints) {
  auto p = torch::tensor({{{1.0, 2.0, 3.0}}}, torch::kFloat64);  // [rows 1, channels 1, points 3]
  auto t = torch::zeros_like(p);
  auto ones = torch::ones({1, 3}, torch::kFloat64);
  const auto area = configured_loss({"training.loss={type: area_weighted_mse}"});
  const auto mse = configured_loss({"training.loss={type: mse}"})->rows(p, t, {});
  EXPECT_DOUBLE_EQ(mse.item<double>(), 14.0 / 3);
  EXPECT_DOUBLE_EQ(area->rows(p, t, ones).item<double>(), 14.0 / 3);
  auto w = torch::tensor({{0.0, 0.0, 3.0}}, torch::kFloat64);
  EXPECT_DOUBLE_EQ(area->rows(p, t, w).item<double>(), 27.0 / 3);
  // Area to a power: weights 4, 1, 0.25 to the power ½ are 2, 1, ½; power 0 is plain MSE.
  auto w2 = torch::tensor({{4.0, 1.0, 0.25}}, torch::kFloat64);
  EXPECT_DOUBLE_EQ(configured_loss({"training.loss={type: area_weighted_mse, power: 0.5}"})
                       ->rows(p, t, w2)
                       .item<double>(),
                   (2 * 1 + 1 * 4 + 0.5 * 9) / 3);
  EXPECT_DOUBLE_EQ(configured_loss({"training.loss={type: area_weighted_mse, power: 0}"})
                       ->rows(p, t, w2)
                       .item<double>(),
                   14.0 / 3);
  // A point of zero weight stays out at power 0 too (0⁰ = 1 would count it).
  EXPECT_DOUBLE_EQ(configured_loss({"training.loss={type: area_weighted_mse, power: 0}"})
                       ->rows(p, t, w)
                       .item<double>(),
                   9.0 / 3);
  EXPECT_DOUBLE_EQ(configured_loss({"training.loss={type: l1}"})->rows(p, t, {}).item<double>(),
                   2.0);
  EXPECT_THROW(losses().at("area_weighted"), InputError);
  EXPECT_THROW(configured_loss({"training.loss={type: area_weighted_mse, power: -1}"}), InputError);
}

TEST(LrSchedule, ClosedForms) {
  const double base = 0.1;
  auto make = [](const std::string& yaml) {
    const CaseNode c = training_section({"training.schedule=" + yaml});
    return lr_schedules().at(c.section("schedule").type()).make(c.section("schedule"), 10);
  };
  EXPECT_DOUBLE_EQ(make("{type: step, step_size: 3, gamma: 0.5}")->rate(7, base), 0.025);
  EXPECT_DOUBLE_EQ(make("{type: exponential, gamma: 0.9}")->rate(2, base), 0.1 * 0.81);
  const auto cosine = make("{type: cosine, min_lr: 0.001}");
  EXPECT_DOUBLE_EQ(cosine->rate(0, base), base);
  EXPECT_NEAR(cosine->rate(5, base), 0.001 + 0.099 * 0.5, 1e-15);
  EXPECT_NEAR(cosine->rate(10, base), 0.001, 1e-15);
  auto plateau = make("{type: plateau, factor: 0.5, patience: 2, threshold: 0}");
  for (double loss : {1.0, 0.9, 0.95, 0.95}) plateau->observe(loss);
  EXPECT_DOUBLE_EQ(plateau->rate(4, base), 0.1);  // two bad epochs: not yet
  plateau->observe(0.95);
  EXPECT_DOUBLE_EQ(plateau->rate(5, base), 0.05);
  auto restored = make("{type: plateau, factor: 0.5, patience: 2, threshold: 0}");
  restored->restore(plateau->state());
  EXPECT_DOUBLE_EQ(restored->rate(6, base), 0.05);
}

TEST(Trainer, LearnsASmoothFunction) {
  const auto dir = surrox::testing::scratch_dir();
  Trainer trainer(training_section({"training.epochs=60", "training.batch_size=64",
                                    "training.optimizer={type: adam, lr: 3e-3}",
                                    "training.schedule={type: cosine}"}));
  auto net = model(3);
  const TensorSet train = problem(1024, 1), valid = problem(256, 2);
  const double before = trainer.evaluate(*net, valid);
  const TrainResult result = trainer.fit(*net, train, valid, dir);
  ASSERT_EQ(result.history.size(), 60u);
  EXPECT_LT(result.best_validation_loss, before / 100) << "before " << before;
  EXPECT_TRUE(std::filesystem::exists(dir / "metrics.csv"));
  EXPECT_TRUE(std::filesystem::exists(dir / "checkpoint.pt"));
  EXPECT_GT(result.samples_per_second, 0);
}

TEST(Trainer, ResumedRunContinuesTheLossCurveExactly) {
  const auto dir = surrox::testing::scratch_dir();
  const std::vector<std::string> config = {
      "training.epochs=8",
      "training.batch_size=100",
      "training.checkpoint_interval=3",
      "training.clip_grad_norm=1.0",
      "training.schedule={type: plateau, patience: 1, factor: 0.5}",
      "training.loss={type: area_weighted_mse}"};
  const TensorSet train = problem(500, 1), valid = problem(100, 2);
  auto straight = model(7);
  const TrainResult full =
      Trainer(training_section(config)).fit(*straight, train, valid, dir / "full");

  // The same run stopped after 5 epochs (as a batch queue would), then resumed by a fresh
  // trainer and a model with other initial weights: the checkpoint must restore everything.
  auto first = model(7);
  const TrainResult part =
      Trainer(training_section(config)).fit(*first, train, valid, dir / "split", {}, 5);
  ASSERT_EQ(part.history.size(), 5u);
  auto second = model(99);
  const TrainResult rest =
      Trainer(training_section(config))
          .fit(*second, train, valid, dir / "split", dir / "split" / "checkpoint.pt");
  ASSERT_EQ(rest.history.size(), full.history.size());
  for (std::size_t e = 0; e < full.history.size(); ++e) {
    EXPECT_EQ(rest.history[e].train_loss, full.history[e].train_loss) << "epoch " << e + 1;
    EXPECT_EQ(rest.history[e].validation_loss, full.history[e].validation_loss)
        << "epoch " << e + 1;
    EXPECT_EQ(rest.history[e].learning_rate, full.history[e].learning_rate) << "epoch " << e + 1;
  }
  auto a = straight->parameters(), b = second->parameters();
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_TRUE(torch::equal(a[i], b[i])) << "parameter " << i;
  // A file that is not a checkpoint is bad input.
  std::ofstream(dir / "junk.pt") << "junk";
  auto third = model(1);
  EXPECT_THROW(
      Trainer(training_section(config)).fit(*third, train, valid, dir / "junk", dir / "junk.pt"),
      InputError);
}

TEST(Trainer, EmptyTrainingSplitAndMissingWeightsAreBadInput) {
  const auto dir = surrox::testing::scratch_dir();
  auto net = model(1);
  Trainer trainer(training_section());
  TensorSet empty{torch::zeros({0, 2}, torch::kFloat64), torch::zeros({0, 2}, torch::kFloat64), {}};
  EXPECT_THROW(trainer.fit(*net, empty, empty, dir), InputError);
  Trainer weighted(training_section({"training.loss={type: area_weighted_mse}"}));
  TensorSet unweighted = problem(10, 1);
  unweighted.weights = torch::Tensor();
  EXPECT_THROW(weighted.fit(*net, unweighted, unweighted, dir), InputError);
  EXPECT_THROW(training_section({"training.optimizer={type: adamm}"}), InputError);
}

TEST(Trainer, EarlyStoppingEndsARunThatStopsImproving) {
  const auto dir = surrox::testing::scratch_dir();
  // A learning rate far too small: the validation loss barely moves and never improves by much,
  // while a huge rate makes it bounce. Use lr = 0 (validation constant) to force the stop.
  Trainer trainer(training_section({"training.epochs=50", "training.early_stopping_patience=3",
                                    "training.optimizer={type: sgd, lr: 1e-300, momentum: 0}"}));
  auto net = model(2);
  const TrainResult r = trainer.fit(*net, problem(64, 1), problem(32, 2), dir);
  EXPECT_TRUE(r.stopped_early);
  EXPECT_EQ(r.history.size(), 4u);  // the first epoch sets the best; three more without improvement
}

}  // namespace
}  // namespace surrox::training
