// ctest-labels: unit
// ctest-libraries: surrox_training
// ctest-pch: torch
// The field family's baselines and error measures on hand-worked cases: four cases of three
// points (inputs x and a parameter a, output y = a·(x + 1)), three of them training cases; the
// nearest training case, inverse-distance interpolation over 2 and 3 neighbours, a training case
// that is not its own neighbour, cases on other meshes by grid index or nearest point, cases
// without a parameter skipped with the reason; a zero reference channel gets no relative error,
// only its absolute RMS.
#include "training/field/field_baselines.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "training/field/field_errors.hpp"

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

TEST(FieldBaselines, OtherMeshesAreTransferredAndMissingParametersSkippedWithTheReason) {
  // Other meshes: a nearest-point transfer. Case a = 3 on points shifted by 0.4 (nearest
  // still the same index) and case a = 1 with its last point dropped.
  FieldBaselineInputs moved = hand_worked_cases(2);
  moved.inputs[3].select(1, 0).add_(0.4);
  moved.inputs[1] = moved.inputs[1].slice(0, 0, 2);
  moved.outputs[1] = moved.outputs[1].slice(0, 0, 2);
  const FieldBaselines transferred = field_baselines(moved, {"x", "a"});
  EXPECT_EQ(transferred.skipped, "");
  EXPECT_EQ(transferred.combined, "nearest point");
  // a = 2 (points 0, 1, 2): a = 1's values at its nearest points 0, 1, 1; a = 3's at 0, 1, 2.
  const torch::Tensor a1 = torch::tensor({1.0, 2.0, 2.0}, torch::kFloat64).unsqueeze(1);
  EXPECT_TRUE(torch::allclose(transferred.nearest[2], a1));
  EXPECT_TRUE(torch::allclose(transferred.interpolated[2], 0.5 * (a1 + times_x_plus_one(3.0))));
  // Structured grids of one topology are combined by grid index instead.
  FieldBaselineInputs shifted = hand_worked_cases(2);
  shifted.inputs[3].select(1, 0).add_(0.5);
  shifted.structured = true;
  EXPECT_EQ(field_baselines(shifted, {"x", "a"}).combined, "grid index");
  EXPECT_EQ(field_baselines(hand_worked_cases(2), {"x", "a"}).combined, "one mesh");
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
