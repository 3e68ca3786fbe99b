// ctest-labels: unit
// ctest-libraries: surrox_families
// ctest-pch: torch
// The one model interface: a small model of each built-in family, saved through it and read
// back by load_surrogate_model (the loader its family's registration call registered), has the
// same family and metadata and predicts bit for bit what the family's own code predicts; a file
// of an unknown family and a file that is no model are input errors that say so. `surrox info`'s
// description of each comes from the same interface.
#include "surrogates/surrogate_model.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <fstream>

#include "apps/model_description.hpp"
#include "core/error.hpp"
#include "core/schema_validator.hpp"
#include "core/version.hpp"
#include "families/builtin_families.hpp"
#include "support/test_paths.hpp"
#include "surrogates/deep_potential/deep_potential_model.hpp"
#include "surrogates/deep_potential/environment.hpp"
#include "surrogates/field_model.hpp"
#include "surrogates/model_file.hpp"
#include "surrogates/networks.hpp"
#include "training/pod_lstm/pod_lstm_surrogate_model.hpp"
#include "training/super_resolution/super_resolution_surrogate_model.hpp"

namespace surrox::surrogates {
namespace {

namespace fs = std::filesystem;

void expect_bitwise_equal(const torch::Tensor& a, const torch::Tensor& b, const std::string& what) {
  ASSERT_EQ(a.sizes(), b.sizes()) << what;
  ASSERT_EQ(a.dtype(), b.dtype()) << what;
  EXPECT_TRUE(torch::equal(a, b)) << what << ": largest difference "
                                  << (a - b).abs().max().item<double>();
}

// Saves `model` through the interface, loads it back as any model file and checks what the
// interface promises; returns the loaded model.
std::unique_ptr<SurrogateModel> round_trip(const SurrogateModel& model, const fs::path& path) {
  families::register_builtin_families();
  model.save(path);
  auto loaded = load_surrogate_model(path);
  EXPECT_EQ(loaded->family(), model.family());
  EXPECT_EQ(model_family(path), model.family());
  EXPECT_EQ(loaded->metadata(), read_model_metadata(path));
  EXPECT_EQ(loaded->input_names(), model.input_names());
  EXPECT_EQ(loaded->output_names(), model.output_names());
  // `surrox info MODEL` describes it through the same interface.
  EXPECT_TRUE(apps::is_model_file(path));
  const nlohmann::json described = apps::describe_model(path);
  EXPECT_EQ(described["family"], model.family());
  EXPECT_EQ(described["inputs"].size(), model.inputs().size());
  EXPECT_EQ(described["outputs"].at(0)["name"], model.output_names().at(0));
  EXPECT_EQ(described["metadata"]["family"], model.family());
  return loaded;
}

std::shared_ptr<Network> small_mlp(const std::string& yaml, long in, long out) {
  YAML::Node node = YAML::Load(yaml);
  auto origin = std::make_shared<CaseOrigin>();
  origin->file = "net.yaml";
  CaseNode section(node, origin);
  validate_case(networks().schema_of("mlp"), section);
  return std::shared_ptr<Network>(networks().at("mlp").make(section, in, out));
}

TEST(SurrogateModel, FieldModelRoundTripsAndPredictsAsTheSurrogate) {
  torch::manual_seed(11);
  SurrogateMetadata m;
  m.network = "mlp";
  m.network_yaml = "{hidden: [8], activation: tanh}";
  m.input_domains = {grid_cells_input({16, 8})};
  m.inputs.names = {"centroid_x", "centroid_y"};
  m.inputs.mean = {0.5, -0.25};
  m.inputs.scale = {2.0, 3.0};
  m.outputs.names = {"pressure"};
  m.outputs.mean = {1.0};
  m.outputs.scale = {0.5};
  m.surrox_version = kVersion;  // what save() writes
  FieldModel model(std::make_unique<Surrogate>(small_mlp(m.network_yaml, 2, 1), m));
  EXPECT_EQ(model.metadata()["family"], "field");
  EXPECT_EQ(model.input_names(), std::vector<std::string>{"inputs"});

  const auto dir = surrox::testing::scratch_dir();
  auto loaded = round_trip(model, dir / "field.pt");
  EXPECT_EQ(loaded->metadata(), model.metadata());
  const torch::Tensor x = torch::rand({7, 2}, torch::kFloat64);
  const torch::Tensor own = model.surrogate().predict(x);
  expect_bitwise_equal(loaded->predict({{"inputs", x}}).at("outputs"), own, "field outputs");
}

TEST(SurrogateModel, DeepPotentialRoundTripsAndPredictsAsItsOwnPath) {
  namespace dp = deep_potential;
  dp::SeE2aConfig c;
  c.type_map = {"Si"};
  c.rcut = 3.5;
  c.rcut_smth = 3.0;
  c.sel = {16};
  c.embedding = {4, 8};
  c.axis_neuron = 2;
  c.fitting = {8};
  c.seed = 5;
  dp::SeE2aModel net(c);
  // Eight atoms of a 4 Å cube, a little off the lattice, in two frames.
  std::vector<double> coord;
  for (int frame = 0; frame < 2; ++frame)
    for (int i = 0; i < 8; ++i)
      for (int d = 0; d < 3; ++d)
        coord.push_back(2.0 * ((i >> d) & 1) + 0.05 * std::sin(1.0 + i + 3 * d + 7 * frame));
  const std::vector<double> box = {4, 0, 0, 0, 4, 0, 0, 0, 4};
  const std::vector<int> types(8, 0);
  std::vector<dp::FrameEnvironment> frames;
  for (int f = 0; f < 2; ++f)
    frames.push_back(
        dp::build_environment(coord.data() + 24 * f, box.data(), types, c.rcut, c.sel));
  net->compute_statistics({dp::make_batch(frames, types, 1)});
  net->fit_energy_bias({{8}, {8}}, {-36.5, -35.5});  // a bias the file must carry
  dp::DeepPotentialModel model(net, {{"steps", 0}});

  auto loaded = round_trip(model, surrox::testing::scratch_dir() / "dp.pt");
  EXPECT_EQ(loaded->metadata(), model.metadata());
  const auto f64 = torch::TensorOptions().dtype(torch::kFloat64);
  const NamedTensors inputs{{"coord", torch::tensor(coord, f64).view({2, 8, 3})},
                            {"box", torch::tensor(box, f64).view({1, 9}).repeat({2, 1})},
                            {"types", torch::zeros({8}, torch::kInt64)}};
  const NamedTensors out = loaded->predict(inputs);
  const dp::Prediction own = dp::predict(net, dp::make_batch(frames, types, 1));
  expect_bitwise_equal(out.at("energy"), own.energy, "energy");
  expect_bitwise_equal(out.at("force"), own.force, "force");
  expect_bitwise_equal(out.at("virial"), own.virial, "virial");
  EXPECT_GT(own.force.abs().max().item<double>(), 0);  // off-lattice: real forces
  try {
    loaded->predict({{"coord", inputs.at("coord")}, {"types", inputs.at("types")}});
    FAIL() << "a missing input was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no input 'box'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("given: coord, types"), std::string::npos) << e.what();
  }
}

TEST(SurrogateModel, SuperResolutionRoundTripsAndPredictsAsItsOwnPath) {
  namespace srt = training::super_resolution;
  torch::manual_seed(12);
  srt::SuperResolutionModel m;
  m.options.latent = 4;
  m.options.unet_filters = 2;
  m.options.unet_max_filters = 8;
  m.options.imnet_filters = 4;
  m.network = surrogates::super_resolution::MeshfreeFlowNet(m.options);
  m.network->eval();
  m.mean = {0.1, 0.2, -0.1, 0.05};
  m.std = {1.5, 0.5, 2.0, 1.0};
  m.spacing = {0.1, 0.05, 0.05};
  m.rayleigh = 1e6;
  m.prandtl = 1;
  m.gamma = 0.0125;
  m.training = {{"epochs", 1}};
  srt::SuperResolutionSurrogateModel model(m);

  auto loaded = round_trip(model, surrox::testing::scratch_dir() / "sr.pt");
  EXPECT_EQ(loaded->metadata(), model.metadata());
  const torch::Tensor lowres = torch::rand({1, 4, 4, 8, 8});
  const torch::Tensor points = torch::rand({1, 9, 3});
  torch::Tensor own;
  {
    torch::NoGradGuard no_grad;
    own = m.denormalise(m.network->decode(m.network->encode(m.normalise(lowres)), points));
  }
  expect_bitwise_equal(loaded->predict({{"lowres", lowres}, {"points", points}}).at("fields"), own,
                       "super-resolved fields");
}

TEST(SurrogateModel, PodLstmRoundTripsAndPredictsAsItsOwnForecast) {
  namespace pl = training::pod_lstm;
  torch::manual_seed(13);
  pl::PodLstmModel m;
  m.options.modes = 3;
  m.options.input_steps = 2;
  m.options.output_steps = 2;
  m.options.layers = {4};
  for (int k = 0; k < 2; ++k) m.members.push_back(std::make_shared<pod::StackedLstm>(m.options));
  const auto f64 = torch::TensorOptions().dtype(torch::kFloat64);
  const torch::Tensor snapshots = torch::rand({6, 10}, f64);
  m.basis = pod::compute_pod(snapshots, 3);
  ASSERT_EQ(m.basis.size(), 3);
  const torch::Tensor coefficients = m.basis.project(snapshots);
  m.scaling = pl::Scaling::fit(coefficients, 0, 6);
  m.climatology = coefficients.mean(0);
  m.linear.weights = torch::rand({2 * 3 + 1, 2 * 3}, f64);
  m.training = {{"epochs", 1}};
  pl::PodLstmSurrogateModel model(m);

  auto loaded = round_trip(model, surrox::testing::scratch_dir() / "pod.pt");
  EXPECT_EQ(loaded->metadata(), model.metadata());
  const torch::Tensor windows = torch::rand({4, 2 * 3}, f64);
  expect_bitwise_equal(loaded->predict({{"coefficients", windows}}).at("forecast"),
                       m.forecast(windows), "forecast");
}

TEST(SurrogateModel, UnknownFamilyAndJunkFilesAreInputErrors) {
  families::register_builtin_families();
  const auto dir = surrox::testing::scratch_dir();
  torch::serialize::OutputArchive archive;
  write_model_archive(dir / "alien.pt", archive, {{"family", "alien"}});
  try {
    load_surrogate_model(dir / "alien.pt");
    FAIL() << "a model of an unknown family was loaded";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("alien.pt"), std::string::npos) << what;
    EXPECT_NE(what.find("family 'alien'"), std::string::npos) << what;
    for (const char* known : {"known: ", "deep_potential", "field", "pod_lstm", "super_resolution"})
      EXPECT_NE(what.find(known), std::string::npos) << known << " in: " << what;
  }
  std::ofstream(dir / "junk.pt") << "not a model at all";
  try {
    load_surrogate_model(dir / "junk.pt");
    FAIL() << "a junk file was loaded";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("junk.pt: not a model"), std::string::npos) << e.what();
  }
  EXPECT_THROW(load_surrogate_model(dir / "missing.pt"), InputError);
}

}  // namespace
}  // namespace surrox::surrogates
