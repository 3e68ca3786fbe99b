// ctest-labels: unit
// ctest-libraries: surrox_surrogates
// ctest-pch: torch
// Surrogates: built-in networks by name, save and load with metadata (same predictions), a
// model that does not fit a case refused with the reason, non-models refused, and TorchScript
// exported from Python PyTorch loaded through the same interface.
#include "surrogates/surrogate.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <fstream>

#include "core/error.hpp"
#include "core/schema_validator.hpp"
#include "support/test_paths.hpp"
#include "surrogates/networks.hpp"

namespace surrox::surrogates {
namespace {

std::shared_ptr<Network> make(const std::string& type, const std::string& yaml, long in, long out) {
  YAML::Node node = YAML::Load(yaml);
  auto origin = std::make_shared<CaseOrigin>();
  origin->file = "net.yaml";
  CaseNode section(node, origin);
  validate_case(networks().schema_of(type), section);
  return std::shared_ptr<Network>(networks().at(type).make(section, in, out));
}

Normalization norm(std::vector<std::string> names) {
  Normalization n;
  n.names = names;
  for (std::size_t i = 0; i < names.size(); ++i) {
    n.mean.push_back(0.1 * i);
    n.scale.push_back(1.0 + i);
  }
  return n;
}

TEST(Networks, MlpAndUNetShapes) {
  torch::manual_seed(1);
  auto mlp = make("mlp", "{hidden: [8, 8]}", 3, 2);
  EXPECT_EQ(mlp->forward(torch::rand({5, 3})).sizes(), (std::vector<long>{5, 2}));
  auto unet = make("unet", "{base_channels: 4, depth: 2}", 3, 4);
  // Grid sizes that are not multiples of 2^depth are padded and cropped back.
  EXPECT_EQ(unet->forward(torch::rand({2, 3, 13, 30})).sizes(), (std::vector<long>{2, 4, 13, 30}));
  EXPECT_EQ(grid_samples_of("unet"), GridSamples::kWholeGrid);
  EXPECT_EQ(grid_samples_of("mlp"), GridSamples::kRowPerCell);
  EXPECT_THROW(networks().at("mpl"), InputError);
  try {
    grid_samples_of("mpl");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("known: mlp, unet"), std::string::npos) << e.what();
  }
}

TEST(Networks, UNetIsPeriodicAroundTheAirfoil) {
  // Shifting the input around i (the O-grid's periodic axis) shifts the output the same way.
  torch::manual_seed(2);
  auto unet = make("unet", "{base_channels: 4, depth: 2}", 2, 1);
  unet->to(torch::kFloat64);
  const auto x = torch::rand({1, 2, 8, 16}, torch::kFloat64);
  const auto shifted = unet->forward(torch::roll(x, {4}, {3}));
  EXPECT_TRUE(torch::allclose(shifted, torch::roll(unet->forward(x), {4}, {3}), 1e-12, 1e-12));
}

TEST(Surrogate, SaveLoadPredictsTheSameAndChecksFit) {
  const auto dir = surrox::testing::scratch_dir();
  torch::manual_seed(4);
  SurrogateMetadata m;
  m.network = "mlp";
  m.network_yaml = "{hidden: [16, 16], activation: tanh}";
  m.input_domains = {grid_cells_input({64, 32})};
  m.inputs = norm({"centroid_x", "centroid_y", "solver.mach"});
  m.outputs = norm({"density", "pressure"});
  Surrogate original(make("mlp", m.network_yaml, 3, 2), m);
  original.save(dir / "model.pt");
  const auto loaded = Surrogate::load(dir / "model.pt");
  const auto x = torch::rand({7, 3});
  EXPECT_TRUE(torch::equal(original.predict(x), loaded->predict(x)));
  EXPECT_EQ(loaded->metadata().outputs.names, m.outputs.names);
  EXPECT_FALSE(loaded->metadata().surrox_version.empty());
  EXPECT_EQ(loaded->metadata().input_domains.at(0).to_json(), m.input_domains.at(0).to_json());
  EXPECT_NO_THROW(
      loaded->check_fits({grid_cells_input({64, 32})}, m.inputs.names, m.outputs.names));
  // A per-point model runs on any grid.
  EXPECT_NO_THROW(loaded->check_fits({grid_cells_input({16, 8})}, m.inputs.names, m.outputs.names));
  try {
    loaded->check_fits({grid_cells_input({64, 32})}, {"centroid_x", "centroid_y"}, m.outputs.names);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("solver.mach"), std::string::npos) << e.what();
  }
}

TEST(Surrogate, GridModelRefusesAnotherGrid) {
  SurrogateMetadata m;
  m.network = "unet";
  m.network_yaml = "{base_channels: 2, depth: 1}";
  m.input_domains = {grid_cells_input({64, 32}, GridSamples::kWholeGrid)};
  m.inputs = norm({"a"});
  m.outputs = norm({"b"});
  Surrogate s(make("unet", m.network_yaml, 1, 1), m);
  try {
    s.check_fits({grid_cells_input({128, 64})}, {"a"}, {"b"});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("64 × 32 grid"), std::string::npos) << e.what();
  }
}

TEST(Surrogate, NonModelsAreInputErrors) {
  const auto dir = surrox::testing::scratch_dir();
  EXPECT_THROW(Surrogate::load(dir / "missing.pt"), InputError);
  std::ofstream(dir / "text.pt") << "not a model";
  EXPECT_THROW(Surrogate::load(dir / "text.pt"), InputError);
  // A TorchScript-readable archive without surrox metadata.
  torch::serialize::OutputArchive archive;
  archive.write("x", torch::ones({2}));
  archive.save_to((dir / "plain.pt").string());
  try {
    Surrogate::load(dir / "plain.pt");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("surrox.json"), std::string::npos) << e.what();
  }
}

TEST(Surrogate, TorchScriptFromPythonPyTorch) {
  const auto dir = surrox::testing::scratch_dir();
  std::string out;
  if (surrox::testing::run_command("/usr/bin/python3 -c 'import torch'", &out) != 0)
    GTEST_SKIP() << "python3-torch is not installed (scripts/bootstrap.sh installs it): " << out;
  const auto script =
      surrox::testing::source_dir() / "tests" / "surrogates" / "make_torchscript.py";
  ASSERT_EQ(surrox::testing::run_command(
                "/usr/bin/python3 " + script.string() + " " + (dir / "ts.pt").string(), &out),
            0)
      << out;
  const auto model = Surrogate::load(dir / "ts.pt");
  EXPECT_EQ(model->metadata().network, "torchscript");
  EXPECT_EQ(model->metadata().inputs.names[2], "solver.alpha_deg");
  const auto& training = model->metadata().training;
  const auto probe = training.at("probe_input").get<std::vector<std::vector<double>>>();
  const auto expected = training.at("probe_output").get<std::vector<std::vector<double>>>();
  auto x = torch::empty({2, 3}, torch::kFloat64);
  for (long r = 0; r < 2; ++r)
    for (long c = 0; c < 3; ++c) x[r][c] = probe[r][c];
  const auto y = model->predict(x);
  for (long r = 0; r < 2; ++r)
    for (long c = 0; c < 2; ++c)
      EXPECT_NEAR(y[r][c].item<double>(), expected[r][c], 1e-12) << r << "," << c;
}

}  // namespace
}  // namespace surrox::surrogates
