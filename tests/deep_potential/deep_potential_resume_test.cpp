// ctest-labels: unit
// ctest-libraries: surrox_training surrox_io
// ctest-pch: torch
// The deep_potential family's exact resume: 20 steps straight equal 8 steps, a checkpoint and
// a resumed run to 20 (weights bit for bit, metrics.csv rows and final metrics identical), with
// the checkpoint taken between two metrics rows; a checkpoint of another config, a model file,
// another family's checkpoint and a missing file are InputErrors. change_bias_after_training
// (DeePMD-kit's): applied to a finished run by resuming it, it moves the energy bias alone, by
// the fit that zeroes the mean energy error of the statistics frames. training.init_model starts
// from a given model (weights, statistics, bias), refusing another architecture.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numeric>
#include <sstream>

#include "core/error.hpp"
#include "deep_potential_training_support.hpp"
#include "surrogates/deep_potential/model_file.hpp"
#include "surrogates/deep_potential/training_data.hpp"

namespace surrox::training {
namespace {
namespace fs = std::filesystem;
using namespace dp_test;

std::string text_of(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// metrics.csv without its last column (wall-clock seconds).
std::vector<std::string> rows_without_seconds(const fs::path& p) {
  std::vector<std::string> rows;
  std::istringstream in(text_of(p));
  for (std::string line; std::getline(in, line);) rows.push_back(line.substr(0, line.rfind(',')));
  return rows;
}

TEST(DeepPotentialResume, StoppedAndResumedEqualsStraight) {
  const fs::path dir = surrox::testing::scratch_dir();
  const std::string text =
      dp_config_text(write_dp_frames(dir / "train", 16, 1), write_dp_frames(dir / "held", 6, 2));
  const auto straight = dp_train(text, dir / "straight");
  const auto first = dp_train(text, dir / "first", {}, std::nullopt, 8);
  EXPECT_EQ(first["steps"], 8);
  EXPECT_FALSE(first["finished"].get<bool>());
  const auto resumed = dp_train(text, dir / "resumed", {}, dir / "first/checkpoint.pt");
  EXPECT_EQ(resumed["steps"], 20);
  EXPECT_TRUE(resumed["finished"].get<bool>());

  namespace dp = surrogates::deep_potential;
  auto a = dp::load_model(dir / "straight/model.pt"), b = dp::load_model(dir / "resumed/model.pt");
  const auto pa = a->parameters(), pb = b->parameters();
  ASSERT_EQ(pa.size(), pb.size());
  for (std::size_t i = 0; i < pa.size(); ++i) EXPECT_TRUE(torch::equal(pa[i], pb[i])) << i;
  // The first run's weights differ from the end's: the test can fail.
  auto c = dp::load_model(dir / "first/model.pt");
  EXPECT_FALSE(torch::equal(c->parameters()[0], pa[0]));
  for (const char* split : {"train", "validation"})
    for (const char* key : {"energy_rmse_per_atom", "force_rmse", "virial_rmse_per_atom"})
      EXPECT_EQ(straight[split][key].get<double>(), resumed[split][key].get<double>())
          << split << " " << key;
  const auto rows = rows_without_seconds(dir / "straight/metrics.csv");
  EXPECT_EQ(rows.size(), 5u);  // header and steps 5, 10, 15, 20
  EXPECT_EQ(rows, rows_without_seconds(dir / "resumed/metrics.csv"));
  std::printf("20 straight vs 8 + resumed 12: %zu weight tensors equal bitwise, %s\n", pa.size(),
              rows.back().c_str());
}

// Mean of E_label − E_model over the first `frames` frames of the system at `path`.
double mean_energy_error(surrogates::deep_potential::SeE2aModel& model, const fs::path& path,
                         long frames) {
  namespace dp = surrogates::deep_potential;
  const auto systems = dp::load_systems({path}, model->config());
  std::vector<long> first(frames);
  std::iota(first.begin(), first.end(), 0L);
  const dp::Prediction p = dp::predict(model, dp::batch_frames(systems.at(0), first, 1));
  return (dp::labels_of(systems[0], first).energy - p.energy).mean().item<double>();
}

TEST(DeepPotentialChangeBias, ZeroesTheMeanEnergyErrorOfTheStatFramesAndMovesOnlyTheBias) {
  const fs::path dir = surrox::testing::scratch_dir();
  const std::string text =
      dp_config_text(write_dp_frames(dir / "train", 16, 5), write_dp_frames(dir / "held", 4, 6));
  dp_train(text, dir / "plain");
  // The finished run resumed with the option: no step is taken, the bias is changed.
  const auto changed = dp_train(text, dir / "changed", {"training.change_bias_after_training=true"},
                                dir / "plain/checkpoint.pt");
  ASSERT_TRUE(changed.contains("energy_bias_change"));
  const double shift = changed["energy_bias_change"][0].get<double>();
  namespace dp = surrogates::deep_potential;
  auto a = dp::load_model(dir / "plain/model.pt"), b = dp::load_model(dir / "changed/model.pt");
  const auto pa = a->parameters(), pb = b->parameters();
  ASSERT_EQ(pa.size(), pb.size());
  for (std::size_t i = 0; i < pa.size(); ++i) EXPECT_TRUE(torch::equal(pa[i], pb[i])) << i;
  EXPECT_NEAR((b->bias - a->bias)[0].item<double>(), shift, 1e-14);
  // stat_frames is 8 in this config; one type and equal atom counts, so the fit zeroes the mean.
  const double before = mean_energy_error(a, dir / "train", 8),
               after = mean_energy_error(b, dir / "train", 8);
  EXPECT_GT(std::fabs(before), 1e-5);  // there was an offset to remove: the check can fail
  EXPECT_NEAR(after, 0.0, 1e-10);
  EXPECT_NEAR(shift, before / 8, 1e-10);  // per atom of the 8-atom frames
  std::printf("change_bias_after_training: shift %.6g eV per atom, mean error %.3g → %.3g eV\n",
              shift, before, after);
}

TEST(DeepPotentialResume, ForeignCheckpointsAreInputErrors) {
  const fs::path dir = surrox::testing::scratch_dir();
  const std::string text =
      dp_config_text(write_dp_frames(dir / "train", 8, 3), write_dp_frames(dir / "held", 4, 4));
  dp_train(text, dir / "run", {}, std::nullopt, 3);
  const fs::path checkpoint = dir / "run/checkpoint.pt";
  ASSERT_TRUE(fs::exists(checkpoint));
  auto message = [&](const std::vector<std::string>& overrides, const fs::path& resume) {
    try {
      dp_train(text, dir / "again", overrides, resume, 1);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no InputError");
  };
  EXPECT_NE(message({"training.seed=8"}, checkpoint).find("training.seed differs"),
            std::string::npos);
  EXPECT_NE(message({"model.embedding=[4, 4]"}, checkpoint).find("model.embedding differs"),
            std::string::npos);
  EXPECT_NE(message({}, dir / "run/model.pt").find("not a training checkpoint"), std::string::npos);
  EXPECT_NE(message({}, dir / "missing.pt").find("no such checkpoint"), std::string::npos);
  {
    // The field family's checkpoint layout: archives without deep-potential metadata.
    torch::serialize::OutputArchive archive, model;
    model.write("w", torch::zeros({2}));
    archive.write("model", model);
    archive.write("epoch", torch::tensor(3));
    archive.save_to((dir / "field_checkpoint.pt").string());
  }
  EXPECT_NE(message({}, dir / "field_checkpoint.pt").find("checkpoint of another family"),
            std::string::npos);
  // The same config resumes.
  EXPECT_EQ(message({}, checkpoint), "no InputError");
}

// training.init_model (DeePMD-kit's --init-model): a run started from a model with a learning
// rate too small to move it reproduces that model's predictions, statistics and bias included,
// even with another model.seed; a model of another architecture is an InputError naming both.
TEST(DeepPotentialInitModel, StartsFromTheGivenModelsWeightsAndStatistics) {
  const fs::path dir = surrox::testing::scratch_dir();
  const fs::path train = write_dp_frames(dir / "train", 16, 11);
  const std::string text = dp_config_text(train, write_dp_frames(dir / "held", 4, 12));
  dp_train(text, dir / "first");
  // Other frames, so the fresh statistics and bias would differ from the first run's.
  const std::string other = dp_config_text(write_dp_frames(dir / "other", 16, 13), dir / "held");
  const std::vector<std::string> frozen = {
      "training.init_model=" + (dir / "first/model.pt").string(), "model.seed=9",
      "training.steps=1", "training.optimizer.lr=1e-14", "training.stop_lr=1e-14"};
  dp_train(other, dir / "second", frozen);
  dp_train(other, dir / "fresh",
           {"model.seed=9", "training.steps=1", "training.optimizer.lr=1e-14",
            "training.stop_lr=1e-14"});
  namespace dp = surrogates::deep_potential;
  auto a = dp::load_model(dir / "first/model.pt"), b = dp::load_model(dir / "second/model.pt"),
       c = dp::load_model(dir / "fresh/model.pt");
  const auto systems = dp::load_systems({train}, a->config());
  const auto batch = dp::batch_frames(systems[0], {0, 5, 9}, 1);
  const auto pa = dp::predict(a, batch), pb = dp::predict(b, batch), pc = dp::predict(c, batch);
  EXPECT_LT((pa.energy - pb.energy).abs().max().item<double>(), 1e-9);
  EXPECT_LT((pa.force - pb.force).abs().max().item<double>(), 1e-9);
  EXPECT_TRUE(torch::equal(a->davg, b->davg));
  EXPECT_TRUE(torch::equal(a->bias, b->bias));
  // Without init_model the same run predicts something else: the check can fail.
  EXPECT_GT((pa.energy - pc.energy).abs().max().item<double>(), 1e-3);
  try {
    dp_train(
        other, dir / "bad",
        {"training.init_model=" + (dir / "first/model.pt").string(), "model.embedding=[4, 4]"});
    ADD_FAILURE() << "a model of another architecture was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("has another architecture"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace surrox::training
