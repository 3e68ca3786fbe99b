// ctest-labels: unit slow
// ctest-libraries: surrox_training
// ctest-pch: torch
// `surrox train` with family super_resolution on tiny Rayleigh–Bénard runs: a short training
// writes the model, metrics and both loss terms; `surrox evaluate` compares it with trilinear
// interpolation; a resumed run continues the uninterrupted one exactly; bad input exits 2.
// The runs on two ranks are in sr_train_ranks_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "super_resolution/sr_train_config.hpp"
#include "super_resolution/tiny_rb.hpp"
#include "support/test_paths.hpp"
#include "training/super_resolution/super_resolution_model.hpp"

namespace fs = std::filesystem;
using surrox::testing::run_surrox;
using surrox::testing::scratch_dir;
using surrox::testing::sr_config;
using surrox::testing::sr_results;
using surrox::testing::sr_text;
using surrox::testing::tiny_rb_run;

TEST(SuperResolutionTraining, ShortTrainingThenEvaluationAgainstTrilinear) {
  const fs::path dir = scratch_dir();
  const fs::path out = dir / "train";
  std::string log;
  ASSERT_EQ(run_surrox("train " + sr_config(dir, "short").string() + " -o " + out.string() +
                           " --threads 1 --log-level warn",
                       &log),
            0)
      << log;
  const auto r = sr_results(out);
  EXPECT_EQ(r.at("epochs_trained"), 3);
  EXPECT_EQ(r.at("crops").at("train"), 16);
  EXPECT_GT(r.at("loss_terms").at("validation_l1").get<double>(), 0);
  EXPECT_GT(r.at("loss_terms").at("validation_pde_residual_l1").get<double>(), 0);
  // metrics.csv: a header and one row per epoch.
  const std::string metrics = sr_text(out / "metrics.csv");
  EXPECT_EQ(std::count(metrics.begin(), metrics.end(), '\n'), 4);
  // The model file says its family and normalisation from the training run only.
  const auto model =
      surrox::training::super_resolution::SuperResolutionModel::load(out / "model.pt");
  EXPECT_EQ(model.metadata().at("family"), "super_resolution");
  EXPECT_EQ(model.training.at("train_seeds"), nlohmann::json::array({42}));
  EXPECT_EQ(model.training.at("validation_seeds"), nlohmann::json::array({7}));

  const fs::path eval = dir / "evaluate";
  ASSERT_EQ(run_surrox("evaluate " + (out / "model.pt").string() + " " +
                           tiny_rb_run("--set solver.seed=7").string() + " -o " + eval.string() +
                           " --log-level warn",
                       &log),
            0)
      << log;
  const auto e = sr_results(eval);
  EXPECT_EQ(e.at("family"), "super_resolution");
  for (const char* c : {"p", "b", "u", "w"}) {
    EXPECT_GT(e.at("model").at(c).at("nmae").get<double>(), 0);
    // Trilinear interpolation of this smooth early flow is good: R² close to 1 for b.
    EXPECT_LT(e.at("trilinear").at(c).at("nmae").get<double>(), 1.0);
  }
  EXPECT_GT(e.at("trilinear").at("b").at("r2").get<double>(), 0.9);
  EXPECT_GT(e.at("pde_residual_rms").at("trilinear").at("all").get<double>(), 0);
  EXPECT_TRUE(fs::exists(eval / "error_vs_time.csv"));
  EXPECT_TRUE(fs::exists(eval / "snapshot.csv"));
}

TEST(SuperResolutionTraining, ResumedRunContinuesTheUninterruptedOneExactly) {
  const fs::path dir = scratch_dir();
  const fs::path config = sr_config(dir, "resume");
  const fs::path whole = dir / "whole", part = dir / "part";
  std::string log;
  ASSERT_EQ(run_surrox("train " + config.string() + " -o " + whole.string() +
                           " --threads 1 --log-level warn",
                       &log),
            0)
      << log;
  ASSERT_EQ(run_surrox("train " + config.string() + " -o " + part.string() +
                           " --threads 1 --log-level warn --max-epochs 2",
                       &log),
            0)
      << log;
  ASSERT_EQ(
      run_surrox("train " + config.string() + " -o " + part.string() +
                     " --threads 1 --log-level warn --resume " + (part / "checkpoint.pt").string(),
                 &log),
      0)
      << log;
  // Equal losses in every epoch (the seconds column differs).
  auto losses = [](const std::string& csv) {
    std::vector<std::string> rows;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);) rows.push_back(line.substr(0, line.rfind(',')));
    return rows;
  };
  EXPECT_EQ(losses(sr_text(whole / "metrics.csv")), losses(sr_text(part / "metrics.csv")));
}

TEST(SuperResolutionTraining, BadInputExitsTwoWithTheReason) {
  const fs::path dir = scratch_dir();
  std::string log;
  // A factor that does not divide the grid.
  EXPECT_EQ(
      run_surrox("train " + sr_config(dir, "factor").string() + " -o " + (dir / "factor").string() +
                     " --log-level warn --set data.downsampling.x=5",
                 &log),
      2);
  EXPECT_NE(log.find("does not divide"), std::string::npos) << log;
  // Validation runs must be held-out seeds.
  const fs::path same = dir / "same.yaml";
  {
    std::string text = sr_text(sr_config(dir, "base"));
    const auto at = text.find(tiny_rb_run("--set solver.seed=7").string());
    text.replace(at, tiny_rb_run("--set solver.seed=7").string().size(), tiny_rb_run().string());
    std::ofstream(same) << text;
  }
  EXPECT_EQ(
      run_surrox("train " + same.string() + " -o " + (dir / "same").string() + " --log-level warn",
                 &log),
      2);
  EXPECT_NE(log.find("held-out seeds"), std::string::npos) << log;
  // A model applied to data on another grid, or to another solver's data.
  const fs::path out = dir / "model";
  ASSERT_EQ(run_surrox("train " + sr_config(dir, "model").string() + " -o " + out.string() +
                           " --threads 1 --log-level warn --set training.epochs=1",
                       &log),
            0)
      << log;
  const std::string model = (out / "model.pt").string();
  EXPECT_EQ(
      run_surrox("evaluate " + model + " " + tiny_rb_run("--set solver.cells=[32,16]").string() +
                     " -o " + (dir / "e1").string() + " --log-level warn",
                 &log),
      2);
  EXPECT_NE(log.find("does not match the model"), std::string::npos) << log;
  const fs::path heat = dir / "heat";
  ASSERT_EQ(run_surrox("run " + (surrox::testing::source_dir() / "cases/demo/heat.yaml").string() +
                       " -o " + heat.string() +
                       " --log-level warn --set solver.end_time=0.001 --set output.vtk=false"),
            0);
  EXPECT_EQ(run_surrox("evaluate " + model + " " + (heat / "fields.h5").string() + " -o " +
                           (dir / "e2").string() + " --log-level warn",
                       &log),
            2);
  EXPECT_NE(log.find("solver 'heat'"), std::string::npos) << log;
}
