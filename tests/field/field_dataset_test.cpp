// ctest-labels: unit
// ctest-libraries: surrox_training surrox_io
// ctest-pch: torch
// Training data from a sweep dataset: channels, split by case and by group, statistics from
// the training cases only, point and grid layouts, area weights, and bad input.
#include "training/field/field_dataset.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "core/error.hpp"
#include "io/case_file.hpp"
#include "io/hdf5_sweep.hpp"
#include "support/test_paths.hpp"
#include "training/synthetic_sweep.hpp"

namespace surrox::training {
namespace {

FieldDataset load(const std::filesystem::path& sweep, std::vector<std::string> overrides,
                  surrogates::GridSamples samples = surrogates::GridSamples::kRowPerCell) {
  Schema root("test");
  root.section("data", FieldDataset::schema(), "data");
  overrides.push_back("data.path=" + sweep.string());
  const io::CaseFile c =
      io::load_case_text("data: {outputs: [pressure, velocity]}\n", "train.yaml", root, overrides);
  return FieldDataset::load(c.root.section("data"), samples);
}

TEST(FieldDataset, SplitsByCaseAndNormalisesWithTrainingStatistics) {
  const auto sweep = make_sweep(surrox::testing::scratch_dir());
  const FieldDataset d =
      load(sweep, {"data.split=[0.6, 0.2, 0.2]", "data.weight=area", "data.dtype=float64",
                   "data.parameters=[solver.alpha_deg, cl]"});
  EXPECT_EQ(d.train_cases.size(), 6u);
  EXPECT_EQ(d.validation_cases.size(), 2u);
  EXPECT_EQ(d.test_cases.size(), 2u);
  std::set<std::string> all(d.train_cases.begin(), d.train_cases.end());
  all.insert(d.validation_cases.begin(), d.validation_cases.end());
  all.insert(d.test_cases.begin(), d.test_cases.end());
  EXPECT_EQ(all.size(), 10u);  // no case in two splits
  // Points layout: a row per cell; inputs centroid_x, centroid_y, α, cl; outputs p, v[0], v[1],
  // v[2].
  ASSERT_EQ(d.train.inputs.sizes(), (std::vector<long>{6 * kNi * kNj, 4}));
  ASSERT_EQ(d.train.targets.sizes(), (std::vector<long>{6 * kNi * kNj, 4}));
  EXPECT_EQ(d.outputs.names,
            (std::vector<std::string>{"pressure", "velocity[0]", "velocity[1]", "velocity[2]"}));
  const auto mean = d.train.inputs.mean(0), std = d.train.inputs.std(0, false);
  for (long c = 0; c < 4; ++c) {
    EXPECT_NEAR(mean[c].item<double>(), 0, 1e-12) << c;
    EXPECT_NEAR(std[c].item<double>(), 1, 1e-12) << c;
  }
  EXPECT_DOUBLE_EQ(d.outputs.scale[3], 1.0);  // velocity[2] is constant zero: left unscaled
  EXPECT_NEAR(d.train.weights.mean().item<double>(), 1.0, 1e-12);
  // Centroid of cell (i = 1, j = 2) of the first training case, through the normalisation.
  const int k = std::stoi(d.train_cases[0].substr(5));
  const auto raw = d.inputs.invert(d.train.inputs.slice(0, 0, kNi * kNj));
  EXPECT_NEAR(raw[1 + kNi * 2][0].item<double>(), 1.5 + k, 1e-12);
  EXPECT_NEAR(raw[1 + kNi * 2][1].item<double>(), 5.0, 1e-12);
  EXPECT_NEAR(raw[1 + kNi * 2][2].item<double>(), k, 1e-12);
  EXPECT_NEAR(raw[1 + kNi * 2][3].item<double>(), 0.1 * k, 1e-12);
}

TEST(FieldDataset, GridLayoutAndGroups) {
  const auto sweep = make_sweep(surrox::testing::scratch_dir());
  const FieldDataset d = load(sweep, {"data.group_by=[airfoil]", "data.split=[0.6, 0.2, 0.2]"},
                              surrogates::GridSamples::kWholeGrid);
  ASSERT_EQ(d.train.inputs.dim(), 4);
  EXPECT_EQ(d.train.inputs.size(2), kNj);
  EXPECT_EQ(d.train.inputs.size(3), kNi);
  EXPECT_EQ(d.train.inputs.dtype(), torch::kFloat32);
  // Five airfoils, two cases each (k and k + 5): 3 groups train, 1 validation, 1 test.
  EXPECT_EQ(d.train_cases.size(), 6u);
  auto airfoil_of = [](const std::string& name) { return std::stoi(name.substr(5)) % 5; };
  std::set<int> train, others;
  for (const auto& n : d.train_cases) train.insert(airfoil_of(n));
  for (const auto& n : d.validation_cases) others.insert(airfoil_of(n));
  for (const auto& n : d.test_cases) others.insert(airfoil_of(n));
  for (int a : others) EXPECT_FALSE(train.count(a)) << "airfoil " << a << " leaked into training";
  // Pressure at cell (i = 3, j = 1) of the first training case.
  const int k = std::stoi(d.train_cases[0].substr(5));
  const auto raw = d.outputs.invert(d.train.targets.to(torch::kFloat64));
  EXPECT_NEAR(raw[0][0][1][3].item<double>(), k + 3 + kNi * 1, 1e-4);
}

// The grid-index channels (surrogates/grid_channels.hpp) come from the grid's shape, not the
// file: cell (i, j) gets cos and sin of 2π(i + ½)/ni and (j + ½)/nj, in the points layout's
// i-fastest row order.
TEST(FieldDataset, GridIndexChannels) {
  const auto sweep = make_sweep(surrox::testing::scratch_dir());
  const FieldDataset d =
      load(sweep, {"data.inputs=[grid_i_cos, grid_i_sin, grid_j]", "data.dtype=float64"});
  const auto raw = d.inputs.invert(d.train.inputs.slice(0, 0, kNi * kNj));
  for (long j = 0; j < kNj; ++j)
    for (long i = 0; i < kNi; ++i) {
      const double angle = 2 * M_PI * (i + 0.5) / kNi;
      EXPECT_NEAR(raw[i + kNi * j][0].item<double>(), std::cos(angle), 1e-12);
      EXPECT_NEAR(raw[i + kNi * j][1].item<double>(), std::sin(angle), 1e-12);
      EXPECT_NEAR(raw[i + kNi * j][2].item<double>(), (j + 0.5) / kNj, 1e-12);
    }
}

TEST(FieldDataset, LeavesOutUnconvergedCasesUnlessAsked) {
  const auto sweep = make_sweep(surrox::testing::scratch_dir(), {2, 7});
  auto all_cases = [](const FieldDataset& d) {
    std::set<std::string> names(d.train_cases.begin(), d.train_cases.end());
    names.insert(d.validation_cases.begin(), d.validation_cases.end());
    names.insert(d.test_cases.begin(), d.test_cases.end());
    return names;
  };
  const FieldDataset left_out = load(sweep, {});
  EXPECT_EQ(left_out.unconverged_cases_left_out,
            (std::vector<std::string>{"case_0002", "case_0007"}));
  EXPECT_TRUE(left_out.unconverged_cases_kept.empty());
  const auto used = all_cases(left_out);
  EXPECT_EQ(used.size(), 8u);
  EXPECT_FALSE(used.count("case_0002"));
  EXPECT_FALSE(used.count("case_0007"));

  const FieldDataset kept = load(sweep, {"data.include_unconverged=true"});
  EXPECT_TRUE(kept.unconverged_cases_left_out.empty());
  EXPECT_EQ(kept.unconverged_cases_kept, (std::vector<std::string>{"case_0002", "case_0007"}));
  EXPECT_EQ(all_cases(kept).size(), 10u);

  const auto none_dir = surrox::testing::scratch_dir() / "none";
  std::filesystem::create_directories(none_dir);
  const auto none = make_sweep(none_dir, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  try {
    load(none, {});
    ADD_FAILURE() << "a dataset with only unconverged cases was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("all 10 cases"), std::string::npos) << e.what();
  }
}

TEST(FieldDataset, BadInputNamesWhatIsWrong) {
  const auto sweep = make_sweep(surrox::testing::scratch_dir());
  auto message = [&](const std::vector<std::string>& overrides) {
    try {
      load(sweep, overrides);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({"data.outputs=[pressur]"}).find("has no field 'pressur'"), std::string::npos);
  EXPECT_NE(message({"data.outputs=['velocity[3]']"}).find("3 components"), std::string::npos);
  EXPECT_NE(message({"data.split=[0.0, 0.5, 0.5]"}).find("training split is empty"),
            std::string::npos);
  EXPECT_NE(message({"data.split=[0.5, 0.5, 0.5]"}).find("sum to 1"), std::string::npos);
  EXPECT_NE(message({"data.parameters=[airfoil]"}).find("holds text"), std::string::npos);
  EXPECT_NE(message({"data.parameters=[mach]"}).find("no parameter or result 'mach'"),
            std::string::npos);
}

}  // namespace
}  // namespace surrox::training

namespace surrox::training {
namespace {

// `scale_outputs` on a sweep: the targets are divided by the parameter row by row before their
// statistics, and physical_targets gives back the unscaled rows (points and grid layouts). The
// synthetic cases have cl = 0.1 k (k = 0 … 9): case 0's cl of 0 cannot scale, so the
// parameter is the centroid's x (i + ½ + k, positive).
TEST(FieldDataset, OutputScalingByAParameter) {
  const auto sweep = make_sweep(surrox::testing::scratch_dir());
  for (auto samples : {surrogates::GridSamples::kRowPerCell, surrogates::GridSamples::kWholeGrid}) {
    const std::vector<std::string> common = {"data.dtype=float64", "data.inputs=[centroid_x]"};
    auto scaled_overrides = common;
    scaled_overrides.push_back("data.scale_outputs=[pressure/centroid_x^2]");
    const FieldDataset plain = load(sweep, common, samples);
    const FieldDataset scaled = load(sweep, scaled_overrides, samples);
    ASSERT_EQ(scaled.output_scaling.factors.size(), 1u);
    EXPECT_TRUE(torch::allclose(scaled.physical_targets(scaled.train),
                                plain.physical_targets(plain.train), 1e-12, 1e-12));
    const auto x = plain.inputs.invert(plain.train.inputs).select(1, 0);
    const auto p = plain.physical_targets(plain.train).select(1, 0);
    const auto stored = scaled.outputs.invert(scaled.train.targets).select(1, 0);
    EXPECT_TRUE(torch::allclose(stored, p / x.pow(2), 1e-12, 1e-12));
    // A zero divisor is refused naming the key.
    auto zero = common;
    zero.push_back("data.parameters=[cl]");
    zero.push_back("data.scale_outputs=[pressure/cl]");
    EXPECT_THROW(load(sweep, zero, samples), InputError);
    // Velocity is not scaled: equal statistics.
    EXPECT_DOUBLE_EQ(scaled.outputs.mean[1], plain.outputs.mean[1]);
  }
}

}  // namespace
}  // namespace surrox::training
