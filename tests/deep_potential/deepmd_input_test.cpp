// ctest-labels: unit
// ctest-libraries: surrox_training surrox_io
// ctest-pch: torch
// DeePMD-kit's input.json as a surrox config: the input that says what dp_config_text says
// trains the same model bit for bit; DeePMD-kit's defaults fill absent keys; batch_size "auto"
// follows DeePMD-kit's rule; a key surrox does not implement, or a value it implements otherwise,
// is an InputError naming input.json's line and key path; "_comment" and output-only keys pass.
#include "training/deep_potential/deepmd_input.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <fstream>

#include "deep_potential_training_support.hpp"
#include "surrogates/deep_potential/model_file.hpp"

namespace surrox::training {
namespace {

namespace fs = std::filesystem;

// dp_config_text's model and schedule in DeePMD-kit's words.
std::string deepmd_json(const fs::path& train, const fs::path& validation,
                        const std::string& descriptor_extra = "") {
  return R"({
  "_comment": "dp_config_text of deep_potential_training_support.hpp",
  "model": {
    "type_map": ["Si"],
    "descriptor": {"type": "se_e2_a", "rcut": 4.0, "rcut_smth": 3.0, "sel": [24],
                   "neuron": [4, 8], "axis_neuron": 4, "resnet_dt": false, "seed": 2)" +
         descriptor_extra + R"(},
    "fitting_net": {"neuron": [8, 8], "resnet_dt": true},
    "data_stat_nbatch": 4
  },
  "learning_rate": {"type": "exp", "start_lr": 0.005, "decay_steps": 5, "stop_lr": 1e-4},
  "loss": {"type": "ener", "start_pref_e": 0.02, "limit_pref_e": 1, "start_pref_f": 1000,
           "limit_pref_f": 1, "start_pref_v": 0.02, "limit_pref_v": 0.5},
  "training": {
    "training_data": {"systems": [")" +
         train.string() + R"("], "batch_size": 2},
    "validation_data": {"systems": [")" +
         validation.string() + R"("], "batch_size": 2, "numb_btch": 2},
    "numb_steps": 20, "seed": 7, "disp_freq": 5, "save_freq": 7,
    "disp_file": "lcurve.out", "save_ckpt": "model.ckpt"
  }
})";
}

fs::path write(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

TEST(DeepmdInput, TrainsTheSameModelAsTheSurroxConfig) {
  const fs::path dir = surrox::testing::scratch_dir();
  const auto train = dp_test::write_dp_frames(dir / "train", 12, 1);
  const auto valid = dp_test::write_dp_frames(dir / "valid", 6, 2);
  const fs::path json = write(dir / "input.json", deepmd_json(train, valid));
  ASSERT_TRUE(is_deepmd_input(json));
  const nlohmann::json ours = dp_test::dp_train(dp_test::dp_config_text(train, valid), dir / "a");
  const nlohmann::json theirs = dp_test::dp_train(deepmd_input_to_config(json), dir / "b");
  ASSERT_TRUE(ours.contains("train"));
  EXPECT_EQ(ours["model"].dump(), theirs["model"].dump());  // the resolved model config
  EXPECT_EQ(ours["train"].dump(), theirs["train"].dump());  // metrics, bit for bit
  EXPECT_EQ(ours["validation"].dump(), theirs["validation"].dump());
  EXPECT_EQ(theirs["steps"], 20);
}

TEST(DeepmdInput, AbsentKeysTakeDeePMDsDefaults) {
  const fs::path dir = surrox::testing::scratch_dir();
  const auto train = dp_test::write_dp_frames(dir / "train", 4, 1);
  const fs::path json = write(dir / "input.json", R"({
  "model": {"type_map": ["Si"], "descriptor": {"type": "se_a", "sel": [30]}, "fitting_net": {}},
  "training": {"training_data": {"systems": [")" + train.string() +
                                                      R"("]}, "numb_steps": 100}
})");
  const YAML::Node c = YAML::Load(deepmd_input_to_config(json));
  EXPECT_EQ(c["family"].as<std::string>(), "deep_potential");
  EXPECT_EQ(c["model"]["rcut"].as<double>(), 6.0);
  EXPECT_EQ(c["model"]["rcut_smth"].as<double>(), 0.5);
  EXPECT_EQ(c["model"]["embedding"].as<std::vector<int>>(), (std::vector<int>{10, 20, 40}));
  EXPECT_EQ(c["model"]["axis_neuron"].as<int>(), 4);
  EXPECT_EQ(c["model"]["fitting"].as<std::vector<int>>(), (std::vector<int>{120, 120, 120}));
  EXPECT_EQ(c["training"]["optimizer"]["lr"].as<double>(), 1e-3);
  EXPECT_EQ(c["training"]["stop_lr"].as<double>(), 1e-8);
  EXPECT_EQ(c["training"]["decay_steps"].as<long>(), 5000);
  EXPECT_EQ(c["training"]["loss"]["start_pref_f"].as<double>(), 1000);
  EXPECT_EQ(c["training"]["steps"].as<long>(), 100);
  // "auto": ⌈32 / 8 atoms⌉ = 4 frames per batch; statistics over 10 batches.
  EXPECT_EQ(c["training"]["batch_size"].as<long>(), 4);
  EXPECT_EQ(c["data"]["stat_frames"].as<long>(), 40);
  EXPECT_EQ(c["data"]["train"][0].as<std::string>(), train.string());
}

TEST(DeepmdInput, HybridMapsSeE3AndSeE2R) {
  const fs::path dir = surrox::testing::scratch_dir();
  const auto train = dp_test::write_dp_frames(dir / "train", 4, 1);
  const fs::path json = write(dir / "input.json", R"({
  "model": {"type_map": ["Si"], "fitting_net": {"neuron": [16]},
    "descriptor": {"type": "hybrid", "list": [
      {"type": "se_e2_a", "rcut": 5.0, "rcut_smth": 2.0, "sel": [40], "neuron": [8, 16]},
      {"type": "se_e3", "rcut": 3.8, "rcut_smth": 2.0, "sel": [20], "neuron": [4, 8]},
      {"type": "se_e2_r", "rcut": 5.0, "rcut_smth": 2.0, "sel": [40], "neuron": [2, 4]}]}},
  "training": {"training_data": {"systems": [")" + train.string() +
                                                      R"("], "batch_size": "auto:16"},
               "numb_steps": 10}
})");
  const YAML::Node c = YAML::Load(deepmd_input_to_config(json));
  EXPECT_EQ(c["model"]["three_body"]["rcut"].as<double>(), 3.8);
  EXPECT_EQ(c["model"]["three_body"]["sel"].as<std::vector<int>>(), std::vector<int>{20});
  EXPECT_EQ(c["model"]["three_body"]["embedding"].as<std::vector<int>>(), (std::vector<int>{4, 8}));
  EXPECT_EQ(c["model"]["radial_embedding"].as<std::vector<int>>(), (std::vector<int>{2, 4}));
  EXPECT_EQ(c["training"]["batch_size"].as<long>(), 2);  // ⌈16 / 8⌉
}

// The InputError's location ("file:line:col: key.path: …") and its message.
void expect_refused(const fs::path& dir, const std::string& extra, const std::string& where,
                    const std::string& message) {
  const fs::path json = write(dir / "input.json", deepmd_json(dir / "t", dir / "v", extra));
  try {
    deepmd_input_to_config(json);
    ADD_FAILURE() << "accepted " << extra;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(json.string() + ":"), std::string::npos) << what;
    EXPECT_NE(what.find(where), std::string::npos) << what;
    EXPECT_NE(what.find(message), std::string::npos) << what;
    EXPECT_EQ(e.context().line, 6) << what;  // the descriptor's line of input.json
  }
}

TEST(DeepmdInput, WhatSurroxDoesNotImplementIsRefusedByName) {
  const fs::path dir = surrox::testing::scratch_dir();
  expect_refused(dir, ", \"exclude_types\": [[0, 0]]", "model.descriptor.exclude_types",
                 "surrox does not exclude type pairs");
  expect_refused(dir, ", \"type_one_side\": true", "model.descriptor.type_one_side",
                 "one embedding net per (centre, neighbour) type pair");
  expect_refused(dir, ", \"activation_function\": \"gelu\"", "model.descriptor.activation_function",
                 "tanh only");
  expect_refused(dir, ", \"precision\": \"float16\"", "model.descriptor.precision",
                 "float64 or float32 (precision: float16)");
  expect_refused(dir, ", \"axis_neurons\": 4", "model.descriptor.axis_neurons",
                 "DeePMD-kit's key axis_neurons is not implemented by surrox");
}

// DeePMD-kit's precision float32 on the descriptor and the fitting net: model.precision
// float32, a model that trains to within float32 rounding of the float64 one over 20 steps
// and is saved with float32 nets; one section in another precision is refused by name.
TEST(DeepmdInput, Float32PrecisionMapsAndTrains) {
  const fs::path dir = surrox::testing::scratch_dir();
  const auto train = dp_test::write_dp_frames(dir / "train", 12, 1);
  const auto valid = dp_test::write_dp_frames(dir / "valid", 6, 2);
  const std::string fitting = R"("fitting_net": {"neuron": [8, 8], "resnet_dt": true})";
  std::string text = deepmd_json(train, valid, ", \"precision\": \"float32\"");
  const std::size_t at = text.find(fitting);
  ASSERT_NE(at, std::string::npos);
  const fs::path mixed = write(dir / "mixed.json", text);
  text.replace(at, fitting.size(),
               R"("fitting_net": {"neuron": [8, 8], "resnet_dt": true, "precision": "float32"})");
  const fs::path json = write(dir / "input.json", text);
  const std::string config = deepmd_input_to_config(json);
  EXPECT_EQ(YAML::Load(config)["model"]["precision"].as<std::string>(), "float32");
  const nlohmann::json f32 = dp_test::dp_train(config, dir / "f32");
  const nlohmann::json f64 = dp_test::dp_train(dp_test::dp_config_text(train, valid), dir / "f64");
  const double e32 = f32["validation"]["energy_rmse_per_atom"].get<double>(),
               e64 = f64["validation"]["energy_rmse_per_atom"].get<double>();
  std::printf("20 steps: validation energy RMSE float32 %.6g, float64 %.6g eV/atom\n", e32, e64);
  EXPECT_NEAR(e32, e64, 1e-3 * e64);
  EXPECT_NE(e32, e64);
  const auto model = surrogates::deep_potential::load_model(dir / "f32" / "model.pt");
  EXPECT_EQ(model->named_parameters()[0].value().scalar_type(), torch::kFloat32);
  try {
    deepmd_input_to_config(mixed);
    ADD_FAILURE() << "accepted a float32 descriptor with a float64 fitting net";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("model.fitting_net"), std::string::npos) << what;
    EXPECT_NE(what.find("one precision: the sections before say float32, this one float64"),
              std::string::npos)
        << what;
  }
}

TEST(DeepmdInputCli, SurroxTrainTakesInputJson) {
  const fs::path dir = surrox::testing::scratch_dir();
  const auto train = dp_test::write_dp_frames(dir / "train", 12, 1);
  const auto valid = dp_test::write_dp_frames(dir / "valid", 6, 2);
  const fs::path json = write(dir / "input.json", deepmd_json(train, valid));
  std::string output;
  ASSERT_EQ(surrox::testing::run_surrox(
                "train " + json.string() + " -o " + (dir / "out").string() + " --log-level warn",
                &output),
            0)
      << output;
  EXPECT_TRUE(fs::is_regular_file(dir / "out" / "model.pt"));
  const YAML::Node resolved = YAML::LoadFile((dir / "out" / "config.resolved.yaml").string());
  EXPECT_EQ(resolved["family"].as<std::string>(), "deep_potential");
  EXPECT_EQ(resolved["training"]["steps"].as<long>(), 20);
  // A key surrox does not implement: exit 2, the file, line and key path named.
  write(json, deepmd_json(train, valid, ", \"exclude_types\": [[0, 0]]"));
  EXPECT_EQ(surrox::testing::run_surrox("train " + json.string() + " -o " + (dir / "bad").string(),
                                        &output),
            2);
  EXPECT_NE(output.find(json.string() + ":6:"), std::string::npos) << output;
  EXPECT_NE(output.find("model.descriptor.exclude_types"), std::string::npos) << output;
}

TEST(DeepmdInput, ACorruptFileIsAnInputError) {
  const fs::path dir = surrox::testing::scratch_dir();
  const fs::path json = write(dir / "input.json", "{\"model\": {\"descriptor\": ");
  EXPECT_THROW(is_deepmd_input(json), InputError);
}

}  // namespace
}  // namespace surrox::training
