// ctest-labels: unit slow
// ctest-libraries: surrox_training
// ctest-pch: torch
// `surrox train` with family super_resolution on tiny Rayleigh–Bénard runs: a short training
// writes the model, metrics and both loss terms; `surrox evaluate` compares it with trilinear
// interpolation; a resumed run continues the uninterrupted one exactly; bad input exits 2.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "super_resolution/tiny_rb.hpp"
#include "support/test_paths.hpp"
#include "training/super_resolution_model.hpp"

namespace fs = std::filesystem;
using surrox::testing::run_surrox;
using surrox::testing::scratch_dir;
using surrox::testing::tiny_rb_run;

namespace {

std::string sr_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The two loss columns after the epoch (train, validation) of every row of a metrics.csv.
std::vector<double> sr_loss_columns(const fs::path& metrics) {
  std::vector<double> values;
  std::istringstream in(sr_text(metrics));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string cell;
    std::getline(row, cell, ',');
    for (int c = 0; c < 2 && std::getline(row, cell, ','); ++c) values.push_back(std::stod(cell));
  }
  return values;
}

nlohmann::json sr_results(const fs::path& dir) {
  return nlohmann::json::parse(sr_text(dir / "summary.json")).at("results");
}

// A training config over the seed-42 run, validated on the seed-7 run.
fs::path sr_config(const fs::path& dir, const std::string& name, const std::string& extra = "") {
  const fs::path path = dir / (name + ".yaml");
  std::ofstream(path) << "family: super_resolution\n"
                         "data:\n"
                         "  train: ["
                      << tiny_rb_run().string() << "]\n  validation: ["
                      << tiny_rb_run("--set solver.seed=7").string()
                      << "]\n"
                         "  downsampling: {t: 2, z: 4, x: 4}\n"
                         "  crop: [2, 4, 4]\n"
                         "  crops_per_run: 16\n"
                         "  validation_crops_per_run: 4\n"
                         "  points_per_crop: 32\n"
                         "network: {latent: 4, unet_filters: 4, imnet_filters: 2}\n"
                         "physics: {gamma: 0.0125, residual_points: 8}\n"
                         "training:\n"
                         "  epochs: 3\n"
                         "  batch_size: 8\n"
                         "  checkpoint_interval: 1\n"
                         "  optimizer: {type: adam, lr: 1.0e-3}\n"
                         "  loss: {type: l1}\n"
                      << extra;
  return path;
}

}  // namespace

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

TEST(SuperResolutionTraining, TwoRanksEqualOneRankWithTheSameGlobalBatch) {
  const fs::path dir = scratch_dir();
  const fs::path config = sr_config(dir, "ranks");
  std::string log;
  ASSERT_EQ(run_surrox("train " + config.string() + " -o " + (dir / "one").string() +
                           " --threads 1 --log-level warn --set training.epochs=2",
                       &log),
            0)
      << log;
  ASSERT_EQ(
      surrox::testing::run_command("mpiexec --allow-run-as-root --oversubscribe -n 2 " +
                                       surrox::testing::surrox_executable().string() + " train " +
                                       config.string() + " -o " + (dir / "two").string() +
                                       " --threads 1 --log-level warn --set training.epochs=2",
                                   &log),
      0)
      << log;
  // The same losses up to the order of floating-point sums over ranks.
  const auto one = sr_loss_columns(dir / "one" / "metrics.csv");
  const auto two = sr_loss_columns(dir / "two" / "metrics.csv");
  ASSERT_EQ(one.size(), 4u);
  ASSERT_EQ(two.size(), one.size());
  for (std::size_t i = 0; i < one.size(); ++i) EXPECT_NEAR(two[i], one[i], 1e-5 * one[i]) << i;
}

// training.data_parallel on 2 ranks: the overlapped gradient sum with the optimizer state sharded
// (ZeRO stage 1) gives the default step's losses; a sharded run stopped after one epoch and
// resumed on 2 ranks continues it exactly; its checkpoint is refused on one rank (exit 2).
TEST(SuperResolutionTraining, ShardedOverlappedTwoRankRunEqualsTheDefaultAndResumesExactly) {
  const fs::path dir = scratch_dir();
  const fs::path config = sr_config(dir, "zero");
  const std::string two = "mpiexec --allow-run-as-root --oversubscribe -n 2 " +
                          surrox::testing::surrox_executable().string() + " train " +
                          config.string() + " --threads 1 --log-level warn --set training.epochs=2";
  const std::string sharded =
      " --set 'training.data_parallel={shard_optimizer_state: true, overlap_gradient_sum: true, "
      "bucket_kib: 1}'";
  std::string log;
  ASSERT_EQ(surrox::testing::run_command(two + " -o " + (dir / "plain").string(), &log), 0) << log;
  ASSERT_EQ(surrox::testing::run_command(two + " -o " + (dir / "zero").string() + sharded, &log), 0)
      << log;
  ASSERT_EQ(surrox::testing::run_command(
                two + " -o " + (dir / "part").string() + sharded + " --max-epochs 1", &log),
            0)
      << log;
  const std::string checkpoint = (dir / "part" / "checkpoint.pt").string();
  ASSERT_EQ(surrox::testing::run_command(
                two + " -o " + (dir / "part").string() + sharded + " --resume " + checkpoint, &log),
            0)
      << log;
  const auto plain = sr_loss_columns(dir / "plain" / "metrics.csv");
  const auto zero = sr_loss_columns(dir / "zero" / "metrics.csv");
  const auto resumed = sr_loss_columns(dir / "part" / "metrics.csv");
  ASSERT_EQ(plain.size(), 4u);
  ASSERT_EQ(zero.size(), plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i)
    EXPECT_NEAR(zero[i], plain[i], 1e-6 * plain[i]) << i;
  EXPECT_EQ(resumed, zero);
  // Rank 0 holds about half of the optimizer state.
  const double whole = sr_results(dir / "plain").at("optimizer_state_bytes").get<double>();
  EXPECT_LT(sr_results(dir / "zero").at("optimizer_state_bytes").get<double>(), 0.6 * whole);
  // The sharded checkpoint on one rank: refused with the reason.
  EXPECT_EQ(run_surrox("train " + config.string() + " -o " + (dir / "one").string() +
                           " --log-level warn --set training.epochs=2" + sharded + " --resume " +
                           checkpoint,
                       &log),
            2);
  EXPECT_NE(log.find("sharded over 2 ranks"), std::string::npos) << log;
}
