// ctest-labels: unit
// ctest-libraries: surrox_training
// ctest-pch: torch
// The POD-LSTM data side: a time split whose windows never straddle a boundary, a scaling that
// depends on the training part only, and the linear baseline, which must be exact on a linear
// recurrence (and persistence exact on a constant series).
#include "training/pod_lstm/pod_lstm_data.hpp"

#include <gtest/gtest.h>

#include "training/pod_lstm/pod_lstm_baselines.hpp"

namespace pl = surrox::training::pod_lstm;

namespace {

// a(t+1) = A a(t) for a damped rotation in modes 1–2 and a decaying mode 3, plus a constant.
torch::Tensor pod_recurrence(long steps) {
  const double c = std::cos(0.3) * 0.995, s = std::sin(0.3) * 0.995;
  const torch::Tensor a =
      torch::tensor({{c, -s, 0.0}, {s, c, 0.0}, {0.0, 0.0, 0.97}}, torch::kFloat64);
  torch::Tensor out = torch::zeros({steps, 3}, torch::kFloat64);
  torch::Tensor x = torch::tensor({1.0, 0.0, 2.0}, torch::kFloat64);
  for (long t = 0; t < steps; ++t) {
    out[t] = x + torch::tensor({0.5, -0.2, 0.1}, torch::kFloat64);
    x = torch::matmul(a, x);
  }
  return out;
}

}  // namespace

TEST(PodLstmSplit, WindowsNeverStraddleTheSplit) {
  const pl::TimeSplit split = pl::TimeSplit::from_fractions(103, 0.7, 0.15);
  EXPECT_EQ(split.train_end, 72);
  EXPECT_EQ(split.validation_end, 72 + 15);
  const long in = 8, out = 8;
  const auto train = pl::window_starts(0, split.train_end, in, out);
  const auto validation = pl::window_starts(split.train_end, split.validation_end, in, out);
  const auto test = pl::window_starts(split.test_begin(), split.steps, in, out);
  ASSERT_EQ(static_cast<long>(train.size()), 72 - 16 + 1);
  EXPECT_TRUE(validation.empty());  // 15 snapshots hold no 16-step window
  ASSERT_EQ(static_cast<long>(test.size()), 16 - 16 + 1);
  for (const long s : train) EXPECT_LE(s + in + out, split.train_end);
  for (const long s : test) EXPECT_GE(s, split.validation_end);
  EXPECT_EQ(train.back() + in + out, split.train_end);  // the last training window fills the part
  // Window contents: inputs are steps s..s+7, targets s+8..s+15, flattened step-major.
  const torch::Tensor a = torch::arange(103 * 2, torch::kFloat64).view({103, 2});
  const pl::Windows w = pl::make_windows(a, test, in, out);
  EXPECT_EQ(w.inputs[0][0].item<double>(), 2.0 * split.validation_end);
  EXPECT_EQ(w.targets[0][0].item<double>(), 2.0 * (split.validation_end + in));
  EXPECT_EQ(w.targets.size(1), out * 2);
}

TEST(PodLstmSplit, ScalingSeesTheTrainingPartOnly) {
  torch::manual_seed(1);
  torch::Tensor a = torch::randn({100, 4}, torch::kFloat64);
  const pl::Scaling before = pl::Scaling::fit(a, 0, 70);
  a.slice(0, 70) *= 1000;  // change everything after the training part
  a.slice(0, 70) += 50;
  const pl::Scaling after = pl::Scaling::fit(a, 0, 70);
  EXPECT_TRUE(torch::equal(before.mean, after.mean));
  EXPECT_TRUE(torch::equal(before.std, after.std));
  EXPECT_LT((before.mean - a.slice(0, 0, 70).mean(0)).abs().max().item<double>(), 1e-15);
  // apply/undo on flattened windows (last axis a multiple of N).
  const torch::Tensor w = torch::randn({5, 12}, torch::kFloat64);
  EXPECT_LT((before.undo(before.apply(w)) - w).abs().max().item<double>(), 1e-12);
  const torch::Tensor scaled = before.apply(a.slice(0, 0, 70));
  EXPECT_LT(scaled.mean(0).abs().max().item<double>(), 1e-12);
  EXPECT_LT((scaled.std(0) - 1).abs().max().item<double>(), 1e-12);
}

TEST(PodLstmBaselines, LinearIsExactOnALinearRecurrence) {
  const torch::Tensor a = pod_recurrence(200);
  const auto train = pl::window_starts(0, 140, 8, 8);
  const auto test = pl::window_starts(170, 200, 8, 8);
  const pl::Windows tw = pl::make_windows(a, train, 8, 8), ew = pl::make_windows(a, test, 8, 8);
  const pl::LinearForecaster linear = pl::LinearForecaster::fit(tw.inputs, tw.targets);
  const double scale = ew.targets.abs().max().item<double>();
  EXPECT_LT((linear.forecast(ew.inputs) - ew.targets).abs().max().item<double>(), 1e-8 * scale);
  // Persistence is not (the series moves), and is the last input repeated.
  const torch::Tensor p = pl::persistence_forecast(ew.inputs, 3, 8);
  EXPECT_GT((p - ew.targets).abs().max().item<double>(), 0.1);
  EXPECT_TRUE(torch::equal(p.slice(1, 21, 24), ew.inputs.slice(1, 21, 24)));
  const torch::Tensor c =
      pl::climatology_forecast(torch::tensor({1.0, 2.0, 3.0}, torch::kFloat64), 4, 8);
  EXPECT_EQ(c.sizes(), (std::vector<long>{4, 24}));
  EXPECT_EQ(c[3][23].item<double>(), 3.0);
}
