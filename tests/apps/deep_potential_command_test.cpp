// ctest-labels: regression
// ctest-libraries: surrox_cli
// ctest-pch: torch
// The deep_potential family end to end through the CLI: `surrox run` writes Stillinger–Weber
// frames (solver.deepmd), `surrox train` fits an se_e2_a model on one trajectory with a
// held-out one, `surrox evaluate` gives the same metrics as training's final evaluation (and
// parity files whose force RMSE is the reported one, with parity.png), a
// saved model reloaded evaluates the same energies bit for bit, and bad input is exit 2: a
// model whose type_map lacks the system's element, a truncated npy file; 25 steps and a
// resume to 40 give the 40-step model exactly, a model file or another config's checkpoint
// given to --resume is exit 2.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/test_paths.hpp"
#include "surrogates/deep_potential/model_file.hpp"
#include "surrogates/deep_potential/training_data.hpp"

namespace surrox {
namespace {
namespace fs = std::filesystem;

nlohmann::json dp_results_of(const fs::path& dir) {
  std::ifstream in(dir / "summary.json");
  return nlohmann::json::parse(in)["results"];
}

// Frames of a short Langevin run at `temperature`.
fs::path make_frames(const fs::path& dir, const std::string& name, int temperature, int seed) {
  const fs::path out = dir / name;
  std::string log;
  const std::string args =
      "run " + (surrox::testing::source_dir() / "cases/deep_potential/si_reference.yaml").string() +
      " -o " + out.string() +
      " --log-level warn --set solver.steps=120 --set solver.deepmd.first=20" +
      " --set solver.deepmd.every=10 --set solver.deepmd.set_size=6" +
      " --set solver.integrator.temperature=" + std::to_string(temperature) +
      " --set solver.integrator.seed=" + std::to_string(seed);
  EXPECT_EQ(surrox::testing::run_surrox(args, &log), 0) << log;
  return out / "deepmd";
}

TEST(DeepPotentialCommand, RunTrainEvaluate) {
  const fs::path dir = surrox::testing::scratch_dir();
  const fs::path train = make_frames(dir, "train", 900, 3), held = make_frames(dir, "held", 700, 4);
  EXPECT_TRUE(fs::exists(train / "set.001/coord.npy"));  // 11 frames in sets of 6
  const std::string config =
      (surrox::testing::source_dir() / "cases/deep_potential/si_train.yml").string();
  std::string log;
  ASSERT_EQ(surrox::testing::run_surrox(
                "train " + config + " -o " + (dir / "dp").string() + " --set 'data.train=[" +
                    train.string() + "]' --set 'data.validation=[" + held.string() +
                    "]' --set training.steps=40 --set training.disp_freq=20",
                &log),
            0)
      << log;
  const auto trained = dp_results_of(dir / "dp");
  EXPECT_EQ(trained["steps"], 40);
  EXPECT_EQ(trained["validation"]["frames"], 11);
  EXPECT_TRUE(fs::exists(dir / "dp/metrics.csv"));
  ASSERT_EQ(surrox::testing::run_surrox("evaluate " + (dir / "dp/model.pt").string() + " " +
                                            held.string() + " -o " + (dir / "eval").string(),
                                        &log),
            0)
      << log;
  const auto evaluated = dp_results_of(dir / "eval");
  EXPECT_EQ(evaluated["family"], "deep_potential");
  EXPECT_EQ(evaluated["frames"], 11);
  EXPECT_EQ(evaluated["atoms"], 11 * 64);
  EXPECT_DOUBLE_EQ(evaluated["force_rmse"].get<double>(),
                   trained["validation"]["force_rmse"].get<double>());
  EXPECT_DOUBLE_EQ(evaluated["energy_rmse_per_atom"].get<double>(),
                   trained["validation"]["energy_rmse_per_atom"].get<double>());
  EXPECT_TRUE(evaluated["virial_rmse_per_atom"].is_number());
  // `dp test -d`-style parity output: every force component beside its label, and the figure.
  {
    std::ifstream csv(dir / "eval/parity_force.csv");
    std::string line;
    std::getline(csv, line);
    EXPECT_EQ(line, "system,row,label,model");
    long values = 0;
    double sum2 = 0;
    while (std::getline(csv, line)) {
      const auto b = line.rfind(','), a = line.rfind(',', b - 1);
      const double label = std::stod(line.substr(a + 1, b - a - 1)),
                   model = std::stod(line.substr(b + 1));
      sum2 += (model - label) * (model - label);
      ++values;
    }
    EXPECT_EQ(values, 11 * 64 * 3);
    EXPECT_NEAR(std::sqrt(sum2 / values), evaluated["force_rmse"].get<double>(),
                1e-12 * evaluated["force_rmse"].get<double>());
    EXPECT_TRUE(fs::exists(dir / "eval/parity.png")) << evaluated["outputs"].dump();
  }

  // Saved, reloaded, saved again and reloaded: identical energies.
  namespace dp = surrogates::deep_potential;
  auto model = dp::load_model(dir / "dp/model.pt");
  const auto systems = dp::load_systems({held}, model->config());
  const auto batch = dp::batch_frames(systems[0], {0, 5, 10}, 1);
  const auto e1 = dp::predict(model, batch).energy;
  dp::save_model(dir / "again.pt", model);
  auto again = dp::load_model(dir / "again.pt");
  EXPECT_TRUE(torch::equal(e1, dp::predict(again, batch).energy));

  // Through the CLI: 25 steps, then --resume to 40, gives the straight run's model exactly.
  const std::string same = " --set 'data.train=[" + train.string() + "]' --set 'data.validation=[" +
                           held.string() + "]' --set training.steps=40 --set training.disp_freq=20";
  ASSERT_EQ(
      surrox::testing::run_surrox(
          "train " + config + " -o " + (dir / "half").string() + same + " --max-epochs 25", &log),
      0)
      << log;
  EXPECT_EQ(dp_results_of(dir / "half")["steps"], 25);
  ASSERT_EQ(
      surrox::testing::run_surrox("train " + config + " -o " + (dir / "rest").string() + same +
                                      " --resume " + (dir / "half/checkpoint.pt").string(),
                                  &log),
      0)
      << log;
  auto rest = dp::load_model(dir / "rest/model.pt");
  EXPECT_TRUE(torch::equal(e1, dp::predict(rest, batch).energy));
  // A model file or a checkpoint of another config: exit 2.
  EXPECT_EQ(surrox::testing::run_surrox("train " + config + " -o " + (dir / "bad").string() + same +
                                            " --resume " + (dir / "dp/model.pt").string(),
                                        &log),
            2);
  EXPECT_NE(log.find("not a training checkpoint"), std::string::npos) << log;
  EXPECT_EQ(surrox::testing::run_surrox("train " + config + " -o " + (dir / "bad").string() + same +
                                            " --set model.seed=9 --resume " +
                                            (dir / "half/checkpoint.pt").string(),
                                        &log),
            2);
  EXPECT_NE(log.find("model.seed differs"), std::string::npos) << log;

  // Bad input: exit 2 with the reason.
  ASSERT_EQ(surrox::testing::run_surrox("train " + config + " -o " + (dir / "bad").string() +
                                            " --set 'data.train=[" + train.string() +
                                            "]' --set 'model.type_map=[Ge]'",
                                        &log),
            2);
  EXPECT_NE(log.find("element Si is not in the model's type_map (Ge)"), std::string::npos) << log;
  const fs::path coord = held / "set.000/coord.npy";
  fs::resize_file(coord, fs::file_size(coord) - 8);
  EXPECT_EQ(surrox::testing::run_surrox("evaluate " + (dir / "dp/model.pt").string() + " " +
                                            held.string() + " -o " + (dir / "eval2").string(),
                                        &log),
            2);
  EXPECT_NE(log.find("truncated"), std::string::npos) << log;
}

}  // namespace
}  // namespace surrox
