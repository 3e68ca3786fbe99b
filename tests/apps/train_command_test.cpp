// ctest-labels: regression
// ctest-libraries: surrox_cli
// ctest-pch: torch
// `surrox train`: a model with metadata, metrics, loss plot and test-set errors from a sweep
// dataset; a run stopped with --max-epochs and resumed ends like an uninterrupted one; bad
// configs and checkpoints of another network are exit 2 with the reason.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "support/test_paths.hpp"
#include "surrogates/surrogate.hpp"
#include "training/synthetic_sweep.hpp"

namespace surrox {
namespace {

std::filesystem::path write_config(const std::filesystem::path& dir) {
  const auto sweep = training::make_sweep(dir);
  const auto path = dir / "train.yaml";
  std::ofstream(path)
      << "data:\n  path: " << sweep.string()
      << "\n  inputs: [centroid_x, centroid_y]\n  parameters: [solver.alpha_deg]\n"
         "  outputs: [pressure, 'velocity[1]']\n  weight: area\n  split: [0.6, 0.2, 0.2]\n"
         "network: {type: mlp, hidden: [16, 16]}\n"
         "training:\n  epochs: 4\n  batch_size: 16\n  checkpoint_interval: 1\n"
         "  loss: {type: area_weighted_mse}\n";
  return path;
}

nlohmann::json summary(const std::filesystem::path& dir) {
  std::ifstream in(dir / "summary.json");
  return nlohmann::json::parse(in)["results"];
}

TEST(TrainCommand, WritesModelMetricsAndErrors) {
  const auto dir = surrox::testing::scratch_dir();
  const auto config = write_config(dir);
  std::string out;
  ASSERT_EQ(surrox::testing::run_surrox(
                "train " + config.string() + " -o " + (dir / "out").string(), &out),
            0)
      << out;
  const auto r = summary(dir / "out");
  EXPECT_EQ(r["epochs_trained"], 4);
  EXPECT_EQ(r["cases"]["train"], 6);
  EXPECT_TRUE(r["test_relative_l2"].contains("pressure")) << r.dump();
  EXPECT_TRUE(r["test_relative_l2"].contains("velocity[1]")) << r.dump();
  EXPECT_TRUE(std::filesystem::exists(dir / "out" / "metrics.csv"));
  EXPECT_TRUE(std::filesystem::exists(dir / "out" / "loss.png")) << r["outputs"].dump();
  const auto model = surrogates::Surrogate::load(dir / "out" / "model.pt");
  EXPECT_EQ(model->metadata().inputs.names,
            (std::vector<std::string>{"centroid_x", "centroid_y", "solver.alpha_deg"}));
  const auto* grid =
      surrogates::find_input<surrogates::StructuredGridInputs>(model->metadata().input_domains);
  ASSERT_NE(grid, nullptr);
  EXPECT_EQ(grid->cells, (std::vector<long>{training::kNi, training::kNj}));

  // Stopped after 2 epochs, then resumed: the same final losses as the straight run.
  ASSERT_EQ(
      surrox::testing::run_surrox(
          "train " + config.string() + " -o " + (dir / "split").string() + " --max-epochs 2", &out),
      0)
      << out;
  EXPECT_EQ(summary(dir / "split")["finished"], false);
  ASSERT_EQ(
      surrox::testing::run_surrox("train " + config.string() + " -o " + (dir / "split").string() +
                                      " --resume " + (dir / "split" / "checkpoint.pt").string(),
                                  &out),
      0)
      << out;
  const auto resumed = summary(dir / "split");
  EXPECT_EQ(resumed["finished"], true);
  EXPECT_EQ(resumed["final_train_loss"].get<double>(), r["final_train_loss"].get<double>());
  EXPECT_EQ(resumed["test_loss"].get<double>(), r["test_loss"].get<double>());
}

// `surrox evaluate` on the sweep the model was trained on: every case, and on the cases
// training held out, the same errors training reported.
TEST(EvaluateCommand, FieldModelReproducesTrainingTestErrors) {
  const auto dir = surrox::testing::scratch_dir();
  const auto config = write_config(dir);
  std::string out;
  ASSERT_EQ(surrox::testing::run_surrox(
                "train " + config.string() + " -o " + (dir / "out").string(), &out),
            0)
      << out;
  const auto trained = summary(dir / "out");
  const auto sweep = dir / "sweep.h5";
  std::filesystem::create_directories(dir / "again");
  ASSERT_EQ(surrox::testing::run_surrox("evaluate " + (dir / "out" / "model.pt").string() + " " +
                                            training::make_sweep(dir / "again").string() + " -o " +
                                            (dir / "eval").string(),
                                        &out),
            0)
      << out;
  const auto r = summary(dir / "eval");
  EXPECT_EQ(r["family"], "field");
  EXPECT_EQ(r["cases"], 10);
  const auto& held_out = r["by_case_group"]["held_out_in_training"];
  EXPECT_EQ(held_out["cases"], trained["cases"]["test"]);
  EXPECT_EQ(r["by_case_group"]["trained_on"]["cases"], 8);
  for (const char* channel : {"pressure", "velocity[1]"})
    EXPECT_NEAR(held_out["relative_l2"][channel].get<double>(),
                trained["test_relative_l2"][channel].get<double>(),
                1e-5 * trained["test_relative_l2"][channel].get<double>())
        << channel;
  std::ifstream csv(dir / "eval" / "case_errors.csv");
  std::string line, header;
  int lines = 0;
  while (std::getline(csv, line)) header = ++lines == 1 ? line : header;
  EXPECT_EQ(lines, 11);
  // The baselines beside the model, on the 2 cases the model did not train on.
  const auto& b = r["baselines"];
  EXPECT_EQ(b["parameters"], nlohmann::json::array({"solver.alpha_deg"})) << b.dump();
  EXPECT_EQ(b["compared_cases"], 2) << b.dump();
  EXPECT_EQ(b["combined_by"], "grid index") << b.dump();  // the fixture's grids are shifted
  EXPECT_GT(b["nearest_case_median"]["pressure"].get<double>(), 0) << b.dump();
  EXPECT_GT(b["idw3_median"]["pressure"].get<double>(), 0) << b.dump();
  EXPECT_NEAR(b["model_over_best_baseline"]["pressure"].get<double>(),
              b["model_median"]["pressure"].get<double>() /
                  std::min(b["nearest_case_median"]["pressure"].get<double>(),
                           b["idw3_median"]["pressure"].get<double>()),
              1e-12);
  // The fixture's velocity[1] (−cell index) is the same in every case: the nearest case is
  // exact, and the model's ratio to it has no value.
  EXPECT_EQ(b["nearest_case_median"]["velocity[1]"].get<double>(), 0.0) << b.dump();
  EXPECT_TRUE(b["model_over_best_baseline"]["velocity[1]"].is_null()) << b.dump();
  EXPECT_EQ(header,
            "case,pressure,velocity[1],nearest:pressure,nearest:velocity[1],"
            "idw3:pressure,idw3:velocity[1]");
  EXPECT_TRUE(std::filesystem::exists(dir / "eval" / "baselines.md"));

  // Not a model, and a model on a file that is not a sweep: exit 2 with the reason.
  EXPECT_EQ(surrox::testing::run_surrox("evaluate " + config.string() + " " + sweep.string(), &out),
            2);
  EXPECT_NE(out.find("not a model"), std::string::npos) << out;
  EXPECT_EQ(surrox::testing::run_surrox(
                "evaluate " + (dir / "out" / "model.pt").string() + " " + config.string(), &out),
            2)
      << out;
}

TEST(TrainCommand, BadConfigsAreExitTwo) {
  const auto dir = surrox::testing::scratch_dir();
  const auto config = write_config(dir);
  std::string out;
  EXPECT_EQ(surrox::testing::run_surrox("train " + config.string() + " -o " + (dir / "a").string() +
                                            " --set \"data.outputs=[pressur]\"",
                                        &out),
            2);
  EXPECT_NE(out.find("no field 'pressur'"), std::string::npos) << out;
  EXPECT_EQ(surrox::testing::run_surrox("train " + config.string() + " -o " + (dir / "b").string() +
                                            " --set \"data.split=[0.0, 0.5, 0.5]\"",
                                        &out),
            2);
  EXPECT_NE(out.find("training split is empty"), std::string::npos) << out;
  EXPECT_EQ(surrox::testing::run_surrox("train " + config.string() + " -o " + (dir / "c").string() +
                                            " --set network.type=mpl",
                                        &out),
            2);
  EXPECT_NE(out.find("mlp"), std::string::npos) << out;
  // --resume with a checkpoint of another network (other widths), and with a file that is a
  // torch archive but not a training checkpoint (a model file): exit 2, not torch's backtrace.
  ASSERT_EQ(
      surrox::testing::run_surrox(
          "train " + config.string() + " -o " + (dir / "e").string() + " --max-epochs 1", &out),
      0)
      << out;
  for (const auto& other : {dir / "e" / "checkpoint.pt", dir / "e" / "model.pt"}) {
    EXPECT_EQ(surrox::testing::run_surrox(
                  "train " + config.string() + " -o " + (dir / "f").string() +
                      " --set \"network.hidden=[8, 8]\" --resume " + other.string(),
                  &out),
              2)
        << out;
    EXPECT_EQ(out.find("frame #"), std::string::npos) << out;
  }
  EXPECT_NE(out.find("--resume"), std::string::npos) << out;
  // An unknown family, in the file: its line and the known families.
  std::ofstream(config, std::ios::app) << "family: feild\n";
  EXPECT_EQ(
      surrox::testing::run_surrox("train " + config.string() + " -o " + (dir / "d").string(), &out),
      2);
  EXPECT_NE(out.find("train.yaml:14:9"), std::string::npos) << out;
  EXPECT_NE(out.find("did you mean 'field'"), std::string::npos) << out;
}

}  // namespace
}  // namespace surrox
