// ctest-labels: unit
// ctest-libraries: surrox_surrogates
// ctest-pch: torch
// A model trained in float64 (`data.dtype: float64`) loads in float64 and predicts what it
// predicted before it was saved; a float32 model stays float32. The archive reader replaces a
// parameter's storage without converting it, so float64 weights read into the float32 network
// the metadata builds were reinterpreted bytes (predictions of 1e29 and more).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "core/schema_validator.hpp"
#include "support/test_paths.hpp"
#include "surrogates/networks.hpp"
#include "surrogates/surrogate.hpp"

namespace surrox::surrogates {
namespace {

Normalization unit_normalization(std::vector<std::string> names) {
  Normalization n;
  n.names = names;
  n.mean.assign(names.size(), 0.5);
  n.scale.assign(names.size(), 2.0);
  return n;
}

Surrogate make_surrogate(torch::Dtype dtype) {
  SurrogateMetadata m;
  m.network = "mlp";
  m.network_yaml = "{hidden: [8, 8], activation: tanh}";
  m.input_domains = {grid_cells_input({0, 0})};
  m.inputs = unit_normalization({"x", "y"});
  m.outputs = unit_normalization({"u"});
  auto origin = std::make_shared<CaseOrigin>();
  origin->file = "net.yaml";
  CaseNode section(YAML::Load(m.network_yaml), origin);
  validate_case(networks().schema_of("mlp"), section);
  std::shared_ptr<Network> network(networks().at("mlp").make(section, 2, 1));
  network->to(dtype);
  return Surrogate(network, m);
}

class SurrogatePrecision : public ::testing::TestWithParam<torch::Dtype> {};

TEST_P(SurrogatePrecision, ReloadedModelKeepsItsDtypeAndPredictions) {
  const auto dir = surrox::testing::scratch_dir();
  torch::manual_seed(7);
  Surrogate original = make_surrogate(GetParam());
  original.save(dir / "model.pt");
  const auto loaded = Surrogate::load(dir / "model.pt");
  for (const auto& p : loaded->network().parameters()) EXPECT_EQ(p.scalar_type(), GetParam());
  const auto x = torch::rand({9, 2}, GetParam());
  const auto before = original.predict(x), after = loaded->predict(x);
  EXPECT_TRUE(torch::equal(before, after)) << before << after;
  EXPECT_LT(after.abs().max().item<double>(), 10.0);  // tanh outputs, un-normalised
}

INSTANTIATE_TEST_SUITE_P(Dtypes, SurrogatePrecision,
                         ::testing::Values(torch::kFloat32, torch::kFloat64));

}  // namespace
}  // namespace surrox::surrogates
