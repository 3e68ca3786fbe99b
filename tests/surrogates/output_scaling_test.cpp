// ctest-labels: unit
// ctest-libraries: surrox_surrogates
// ctest-pch: torch
// Similarity scaling of outputs by inputs (surrogates/output_scaling.hpp): entries parsed into
// factors (a vector name scales its components, powers, products), divisors worked by hand,
// scaled ↔ physical round trips on row and grid layouts, the metadata round trip, a model that
// multiplies its scale back, and bad entries naming what exists.
#include "surrogates/output_scaling.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "core/error.hpp"
#include "core/schema_validator.hpp"
#include "support/test_paths.hpp"
#include "surrogates/networks.hpp"
#include "surrogates/surrogate.hpp"

namespace surrox::surrogates {
namespace {

const std::vector<std::string> kInputs = {"x", "speed", "chord"};
const std::vector<std::string> kOutputs = {"U[0]", "U[1]", "p", "nut"};

std::string error_of(const std::vector<std::string>& entries) {
  try {
    parse_output_scaling(entries, kInputs, kOutputs);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(OutputScaling, ParsesEntriesIntoFactors) {
  const OutputScaling s =
      parse_output_scaling({"U/speed", "p / speed^2 * chord^-1"}, kInputs, kOutputs);
  ASSERT_EQ(s.factors.size(), 4u);
  EXPECT_EQ(s.factors[0].output, 0);  // U[0] / speed
  EXPECT_EQ(s.factors[1].output, 1);  // U[1] / speed
  EXPECT_EQ(s.factors[1].input, 1);
  EXPECT_EQ(s.factors[2].output, 2);  // p / speed²
  EXPECT_DOUBLE_EQ(s.factors[2].power, 2);
  EXPECT_EQ(s.factors[3].input, 2);  // p · chord
  EXPECT_DOUBLE_EQ(s.factors[3].power, -1);
  EXPECT_TRUE(parse_output_scaling({}, kInputs, kOutputs).empty());
}

TEST(OutputScaling, DivisorsAndRoundTripsWorkedByHand) {
  const OutputScaling s =
      parse_output_scaling({"U[1]/speed", "p/speed^2*chord"}, kInputs, kOutputs);
  // Two rows: speed 2, chord 3 and speed 4, chord 0.5.
  const auto x = torch::tensor({{0.1, 2.0, 3.0}, {0.2, 4.0, 0.5}}, torch::kFloat64);
  const auto d = s.divisors(x, 4);
  const auto expected =
      torch::tensor({{1.0, 2.0, 12.0, 1.0}, {1.0, 4.0, 8.0, 1.0}}, torch::kFloat64);
  EXPECT_TRUE(torch::allclose(d, expected, 0, 1e-15)) << d;
  const auto y = torch::rand({2, 4}, torch::kFloat64);
  EXPECT_TRUE(torch::allclose(s.to_physical(s.to_scaled(y, x), x), y, 0, 1e-15));
  EXPECT_TRUE(torch::allclose(s.to_scaled(y, x), y / expected, 0, 1e-15));
  // Grid layout [cases, C, nj, ni]: channel axis 1 as for rows.
  const auto xg = x.t().reshape({1, 3, 1, 2}), yg = y.t().reshape({1, 4, 1, 2});
  EXPECT_TRUE(torch::allclose(s.to_scaled(yg, xg).reshape({4, 2}).t(), y / expected, 0, 1e-15));
  // A speed of 0 cannot scale a field.
  EXPECT_THROW(s.divisors(torch::tensor({{0.1, 0.0, 1.0}}, torch::kFloat64), 4), InputError);
}

TEST(OutputScaling, BadEntriesNameWhatExists) {
  EXPECT_NE(error_of({"q/speed"}).find("U[0], U[1], p, nut"), std::string::npos);
  EXPECT_NE(error_of({"U speed"}).find("must read OUTPUT/INPUT"), std::string::npos);
  EXPECT_NE(error_of({"U/mach"}).find("the inputs are x, speed, chord"), std::string::npos);
  EXPECT_NE(error_of({"p/speed^two"}).find("not a number"), std::string::npos);
  EXPECT_NE(error_of({"p/speed*"}).find("'' is not an input"), std::string::npos);
}

TEST(OutputScaling, SavedWithTheModelWhichPredictsPhysicalValues) {
  const auto dir = surrox::testing::scratch_dir();
  torch::manual_seed(3);
  SurrogateMetadata m;
  m.network = "mlp";
  m.network_yaml = "{hidden: [8], activation: tanh}";
  m.input_domains = {grid_cells_input({0, 0})};
  m.inputs = {kInputs, {0, 1, 1}, {1, 2, 2}};
  m.outputs = {kOutputs, {0, 0, 0, 0}, {1, 1, 1, 1}};
  m.output_scaling = parse_output_scaling({"U/speed", "p/speed^2"}, kInputs, kOutputs);
  auto origin = std::make_shared<CaseOrigin>();
  CaseNode section(YAML::Load(m.network_yaml), origin);
  validate_case(networks().schema_of("mlp"), section);
  std::shared_ptr<Network> network(networks().at("mlp").make(section, 3, 4));
  Surrogate original(network, m);
  original.save(dir / "model.pt");
  const auto loaded = Surrogate::load(dir / "model.pt");
  EXPECT_EQ(loaded->metadata().output_scaling.to_json(kInputs, kOutputs),
            m.output_scaling.to_json(kInputs, kOutputs));
  const auto x = torch::tensor({{0.3, 5.0, 1.0}}, torch::kFloat32);
  torch::NoGradGuard no_grad;
  const auto raw = m.outputs.invert(network->forward(m.inputs.apply(x)));
  const auto physical = loaded->predict(x);
  const auto expected = raw * torch::tensor({{5.0f, 5.0f, 25.0f, 1.0f}});
  EXPECT_TRUE(torch::allclose(physical, expected, 1e-6, 1e-6)) << physical << expected;
}

}  // namespace
}  // namespace surrox::surrogates
