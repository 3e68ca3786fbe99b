// ctest-labels: unit
// ctest-libraries: surrox_couplers
// ctest-pch: torch
// The neural-step model's offline pretraining and online updates pinned bit for bit
// (tests/golden/couplers/neural_step_model.yaml) on synthetic snapshots: travelling waves of
// three wavelengths on 64 nodes, 41 snapshots. Written before the updates moved onto the one
// trainer.
#include <gtest/gtest.h>

#include <cmath>

#include "support/golden_file.hpp"
#include "support/tensor_fingerprint.hpp"
#include "training/neural_step/neural_step_model.hpp"

namespace surrox::training::neural_step {
namespace {

std::vector<double> travelling_waves(long t) {
  std::vector<double> omega(64);
  for (long i = 0; i < 64; ++i) {
    const double x = 2 * M_PI * static_cast<double>(i) / 64, s = 0.05 * static_cast<double>(t);
    omega[static_cast<std::size_t>(i)] =
        std::sin(x - s) + 0.5 * std::cos(2 * x + 1.7 * s) + 0.2 * std::sin(5 * x - 0.6 * s);
  }
  return omega;
}

TEST(NeuralStepGolden, PretrainingAndOnlineUpdatesArePinned) {
  torch::Tensor snapshots = torch::empty({41, 64}, torch::kFloat64);
  for (long t = 0; t <= 40; ++t)
    snapshots[t].copy_(torch::tensor(travelling_waves(t), torch::kFloat64));
  NeuralStepOptions options;
  options.modes = 6;
  options.change_modes = 6;
  options.hidden = {12};
  options.epochs = 4;
  options.batch = 8;
  options.learning_rate = 5e-3;
  options.buffer = 50;
  options.updates = 3;
  options.seed = 4;
  NeuralStepModel model(snapshots, options);
  testing::GoldenFile golden("neural_step/neural_step_model",
                             "tests/neural_step/neural_step_golden_test.cpp (NeuralStepModel)");
  golden.check("pretraining_loss", model.pretraining_loss());
  std::vector<double> proposals;
  for (long t = 41; t < 46; ++t) {
    const std::vector<double> before = travelling_waves(t), after = travelling_waves(t + 1);
    const PodProjection p = model.project(before);
    const std::vector<double> next = model.propose(before, p);
    proposals.push_back(testing::tensor_square_sum({torch::tensor(next, torch::kFloat64)}));
    model.learn(p, before, after);
  }
  golden.check("proposal_square_sums", proposals);
  const std::vector<double> last =
      model.propose(travelling_waves(46), model.project(travelling_waves(46)));
  golden.check_fingerprint("last_proposal_fingerprint",
                           testing::tensor_fingerprint({torch::tensor(last, torch::kFloat64)}));
  // From the pretrained state (fresh Adam moments, as each coupler run starts), the updates
  // are pinned too, and a second reset repeats them exactly.
  auto updated_proposal = [&] {
    model.reset_to_start();
    for (long t = 41; t < 46; ++t) {
      const std::vector<double> before = travelling_waves(t);
      model.learn(model.project(before), before, travelling_waves(t + 1));
    }
    return model.propose(travelling_waves(46), model.project(travelling_waves(46)));
  };
  const std::vector<double> after_reset = updated_proposal();
  golden.check_fingerprint(
      "reset_proposal_fingerprint",
      testing::tensor_fingerprint({torch::tensor(after_reset, torch::kFloat64)}));
  golden.check("reset_proposal_square_sum",
               testing::tensor_square_sum({torch::tensor(after_reset, torch::kFloat64)}));
  EXPECT_EQ(updated_proposal(), after_reset);
}

}  // namespace
}  // namespace surrox::training::neural_step
