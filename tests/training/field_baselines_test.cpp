// ctest-labels: unit
// ctest-libraries: surrox_training
// ctest-pch: torch
// The field family's baselines and error measures on hand-worked cases: four cases of three
// points (inputs x and a parameter a, output y = a·(x + 1)), three of them training cases; the
// nearest training case, inverse-distance interpolation over 2 and 3 neighbours, a training case
// that is not its own neighbour, cases on other meshes or without a parameter skipped with the
// reason; a zero reference channel gets no relative error, only its absolute RMS.
#include "training/field_baselines.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "training/field_errors.hpp"

namespace surrox::training {
namespace {

FieldBaselineInputs hand_worked_cases(long neighbours) {
  FieldBaselineInputs in;
  const torch::Tensor x = torch::tensor({0.0, 1.0, 2.0}, torch::kFloat64);
  for (double a : {0.0, 1.0, 2.0, 3.0}) {
    in.inputs.push_back(torch::stack({x, torch::full({3}, a, torch::kFloat64)}, 1));
    in.outputs.push_back((a * (x + 1)).unsqueeze(1));
    in.training.push_back(a != 2.0);
  }
  in.neighbours = neighbours;
  return in;
}

torch::Tensor times_x_plus_one(double a) {
  return (a * (torch::tensor({0.0, 1.0, 2.0}, torch::kFloat64) + 1)).unsqueeze(1);
}

TEST(FieldBaselines, NearestCaseAndInverseDistanceOnHandWorkedCases) {
  const FieldBaselines two = field_baselines(hand_worked_cases(2), {"x", "a"});
  ASSERT_EQ(two.skipped, "");
  EXPECT_EQ(two.parameters, std::vector<std::string>{"a"});
  // a = 2: a = 1 and a = 3 are equally near (the first listed wins); their mean is exact.
  EXPECT_TRUE(torch::allclose(two.nearest[2], times_x_plus_one(1.0)));
  EXPECT_TRUE(torch::allclose(two.interpolated[2], times_x_plus_one(2.0)));
  // The training case a = 1 is not its own neighbour: a = 0 (distance 1) before a = 3 (2).
  EXPECT_TRUE(torch::allclose(two.nearest[1], times_x_plus_one(0.0)));
  // Weights 1/d²: (1·0 + ¼·3) / (1 + ¼) = 0.6.
  EXPECT_TRUE(torch::allclose(two.interpolated[1], times_x_plus_one(0.6)));
  // Three neighbours of a = 2: weights 1, 1, ¼ on a = 1, 3, 0: (1 + 3) / 2.25.
  const FieldBaselines three = field_baselines(hand_worked_cases(3), {"x", "a"});
  EXPECT_TRUE(torch::allclose(three.interpolated[2], times_x_plus_one(4.0 / 2.25)));
}

TEST(FieldBaselines, OtherMeshesAndMissingParametersAreSkippedWithTheReason) {
  FieldBaselineInputs moved = hand_worked_cases(2);
  moved.inputs[3].select(1, 0).add_(0.5);
  EXPECT_NE(field_baselines(moved, {"x", "a"}).skipped.find("do not share one mesh"),
            std::string::npos);
  // Structured grids of one topology are combined by grid index instead.
  moved.structured = true;
  const FieldBaselines by_index = field_baselines(moved, {"x", "a"});
  EXPECT_EQ(by_index.skipped, "");
  EXPECT_EQ(by_index.combined, "grid index");
  EXPECT_EQ(field_baselines(hand_worked_cases(2), {"x", "a"}).combined, "one mesh");
  FieldBaselineInputs smaller = hand_worked_cases(2);
  smaller.structured = true;
  smaller.inputs[0] = smaller.inputs[0].slice(0, 0, 2);
  EXPECT_NE(field_baselines(smaller, {"x", "a"}).skipped.find("differ in size"), std::string::npos);
  FieldBaselineInputs fixed = hand_worked_cases(2);
  for (auto& t : fixed.inputs) t.select(1, 1).fill_(1.0);
  EXPECT_NE(field_baselines(fixed, {"x", "a"}).skipped.find("no input channel is a parameter"),
            std::string::npos);
  FieldBaselineInputs lonely = hand_worked_cases(2);
  lonely.training = {true, false, false, false};
  EXPECT_NE(field_baselines(lonely, {"x", "a"}).skipped.find("holds 1 of the model's training"),
            std::string::npos);
}

TEST(FieldErrors, AZeroReferenceChannelHasAnAbsoluteErrorAndNoRelativeOne) {
  // Channel 0: truth (3, 4), prediction (3, 5): ‖e‖ 1 over ‖t‖ 5. Channel 1: truth ~1e-15 (a 2D
  // case's Uz after an export), prediction 1e-5: relative error undefined, RMS 1e-5.
  const torch::Tensor truth = torch::tensor({{3.0, 1e-15}, {4.0, -1e-15}}, torch::kFloat64);
  const torch::Tensor prediction = torch::tensor({{3.0, 1e-5}, {5.0, 1e-5}}, torch::kFloat64);
  const auto relative = relative_l2(prediction, truth);
  EXPECT_DOUBLE_EQ(relative[0], 0.2);
  EXPECT_TRUE(std::isnan(relative[1]));
  const auto rms = absolute_rms(prediction, truth);
  EXPECT_DOUBLE_EQ(rms[0], std::sqrt(0.5));
  EXPECT_NEAR(rms[1], 1e-5, 1e-15);
  // Medians and maxima skip undefined values.
  EXPECT_DOUBLE_EQ(median_of({NAN, 1.0, 3.0}), 2.0);
  EXPECT_DOUBLE_EQ(max_of({NAN, 1.0, 3.0}), 3.0);
  EXPECT_TRUE(std::isnan(median_of({NAN})));
}

}  // namespace
}  // namespace surrox::training
