// ctest-labels: regression
// ctest-libraries: surrox_training surrox_io_hdf5 surrox_families
// ctest-pch: torch
// The neural-step family end to end on a 16 × 32 double gyre written by `surrox run` (ω every
// 5 steps of 2e-4): `surrox train` fits the proposal network on the first 80 % and beats
// persistence and the mean change on the held-out 20 %; the model file round-trips bit for bit;
// `surrox evaluate` on the same file measures the same held-out pairs; the coupler starts from
// the model (`coupler.model`); a window or grid that does not fit, and --resume, exit 2.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "families/builtin_families.hpp"
#include "support/test_paths.hpp"
#include "surrogates/surrogate_model.hpp"
#include "training/neural_step/neural_step_model.hpp"
#include "training/pod_lstm/pod_lstm_data.hpp"

namespace surrox::training::neural_step {
namespace {

namespace fs = std::filesystem;

nlohmann::json neural_step_summary(const fs::path& dir) {
  std::ifstream in(dir / "summary.json");
  return nlohmann::json::parse(in).at("results");
}

std::string neural_step_source(const char* file) {
  return (testing::source_dir() / "cases/qg" / file).string();
}

// ω every window (5 steps of 2e-4) from t = 0.1 to `end` of a random start on 16 × 32.
fs::path neural_step_dataset(const fs::path& dir, const char* interval = "1e-3",
                             const char* cells = "[16,32]") {
  std::string log;
  const std::string overrides = std::string(" --set solver.cells=") + cells +
                                " --set solver.dt=2e-4 --set solver.initial=random"
                                " --set solver.amplitude=50 --set output.start_time=0.1"
                                " --set solver.end_time=0.2 --set output.interval=" +
                                interval + " --log-level warn";
  EXPECT_EQ(testing::run_surrox("run " + neural_step_source("neural_step_data.yaml") + " -o " +
                                    dir.string() + overrides,
                                &log),
            0)
      << log;
  return dir / "fields.h5";
}

void write_neural_step_config(const fs::path& config, const fs::path& data) {
  std::ofstream(config) << "family: neural_step\n"
                           "data: {path: "
                        << data.string()
                        << ", field: omega, split_train: 0.8, rollout_windows: 5}\n"
                           "network: {modes: 8, change_modes: 8, hidden: [16]}\n"
                           "training: {epochs: 20, batch: 16, learning_rate: 1.0e-3, seed: 3}\n";
}

class NeuralStepFamilyTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(testing::scratch_dir() / "neural_step_family");
    data_ = new fs::path(neural_step_dataset(*dir_ / "data"));
    write_neural_step_config(*dir_ / "train.yaml", *data_);
    std::string log;
    ASSERT_EQ(testing::run_surrox("train " + (*dir_ / "train.yaml").string() + " -o " +
                                      (*dir_ / "model").string() + " --log-level warn",
                                  &log),
              0)
        << log;
  }
  static void TearDownTestSuite() {
    delete dir_;
    delete data_;
  }
  static fs::path* dir_;
  static fs::path* data_;
};
fs::path* NeuralStepFamilyTest::dir_ = nullptr;
fs::path* NeuralStepFamilyTest::data_ = nullptr;

TEST_F(NeuralStepFamilyTest, TrainsAndBeatsPersistenceOnHeldOutSnapshots) {
  const nlohmann::json r = neural_step_summary(*dir_ / "model");
  EXPECT_EQ(r.at("family"), "neural_step");
  const long total = r.at("snapshots").at("total").get<long>();
  EXPECT_GE(total, 100);
  EXPECT_EQ(r.at("snapshots").at("train").get<long>(), static_cast<long>(0.8 * total));
  EXPECT_NEAR(r.at("window_time").get<double>(), 1e-3, 1e-12);
  EXPECT_EQ(r.at("pod").at("modes").get<long>(), 8);
  const auto& held = r.at("held_out");
  EXPECT_EQ(held.at("pairs").get<long>(), total - r.at("snapshots").at("train").get<long>());
  const double model = held.at("model").at("median_relative_to_change").get<double>();
  const double mean_change = held.at("mean_change").at("median_relative_to_change").get<double>();
  EXPECT_NEAR(held.at("persistence").at("median_relative_to_change").get<double>(), 1.0, 1e-12);
  EXPECT_LT(model, 0.5) << held.dump();
  EXPECT_LT(model, 0.5 * mean_change) << held.dump();
  EXPECT_EQ(held.at("rollout").at("windows").get<long>(), 5);
}

TEST_F(NeuralStepFamilyTest, ModelFileRoundTripsBitForBit) {
  const fs::path file = *dir_ / "model" / "model.pt";
  NeuralStepNetwork a = NeuralStepNetwork::load(file);
  a.save(*dir_ / "again.pt", {{"field", "omega"}, {"window_time", 1e-3}});
  NeuralStepNetwork b = NeuralStepNetwork::load(*dir_ / "again.pt");
  const pod_lstm::Snapshots s = pod_lstm::read_snapshots(*data_, "omega");
  const torch::Tensor states = s.values.slice(0, 0, 4);
  EXPECT_TRUE(torch::equal(a.propose_batch(states), b.propose_batch(states)));
  // One state through the coupler's path equals the batched path.
  const std::vector<double> omega(s.values[5].data_ptr<double>(),
                                  s.values[5].data_ptr<double>() + s.values.size(1));
  const std::vector<double> one = a.propose(omega, a.project(omega));
  const torch::Tensor batched = a.propose_batch(s.values.slice(0, 5, 6))[0];
  EXPECT_LT((torch::tensor(one, torch::kFloat64) - batched).abs().max().item<double>(), 1e-12);
  EXPECT_THROW(NeuralStepNetwork::load(*data_), InputError);

  // Through the one model interface: the family's registered loader, the same proposals, and
  // a save that reads back with the same metadata.
  families::register_builtin_families();
  const auto any = surrogates::load_surrogate_model(file);
  EXPECT_EQ(any->family(), "neural_step");
  EXPECT_NEAR(any->metadata().at("window_time").get<double>(), 1e-3, 1e-12);
  const torch::Tensor next = any->predict({{"state", states}}).at("next");
  EXPECT_TRUE(torch::equal(next, a.propose_batch(states)));
  any->save(*dir_ / "interface.pt");
  EXPECT_EQ(surrogates::load_surrogate_model(*dir_ / "interface.pt")->metadata(), any->metadata());
}

TEST_F(NeuralStepFamilyTest, EvaluateMeasuresTheSameHeldOutPairs) {
  std::string log;
  ASSERT_EQ(testing::run_surrox("evaluate " + (*dir_ / "model" / "model.pt").string() + " " +
                                    data_->string() + " -o " + (*dir_ / "eval").string() +
                                    " --log-level warn",
                                &log),
            0)
      << log;
  const nlohmann::json e = neural_step_summary(*dir_ / "eval");
  const nlohmann::json t = neural_step_summary(*dir_ / "model");
  EXPECT_TRUE(e.at("measured_from").at("held_out_of_training_file").get<bool>());
  EXPECT_EQ(e.at("held_out").at("pairs"), t.at("held_out").at("pairs"));
  EXPECT_EQ(e.at("held_out").at("model"), t.at("held_out").at("model"));
  std::ifstream csv(*dir_ / "eval" / "pairs.csv");
  long lines = 0;
  for (std::string line; std::getline(csv, line);) ++lines;
  EXPECT_EQ(lines, 1 + e.at("held_out").at("pairs").get<long>());
  EXPECT_TRUE(fs::exists(*dir_ / "eval" / "rollout.csv"));
}

TEST_F(NeuralStepFamilyTest, DataThatDoesNotFitExitsTwo) {
  const fs::path model = *dir_ / "model" / "model.pt";
  const fs::path wide = neural_step_dataset(*dir_ / "wide", "2e-3");
  const fs::path other = neural_step_dataset(*dir_ / "other", "1e-3", "[8,16]");
  for (const fs::path& data : {wide, other}) {
    std::string log;
    EXPECT_EQ(testing::run_surrox(
                  "evaluate " + model.string() + " " + data.string() + " --log-level warn", &log),
              2)
        << log;
    EXPECT_NE(log.find(data.string()), std::string::npos) << log;
  }
  std::string log;
  EXPECT_EQ(testing::run_surrox("train " + (*dir_ / "train.yaml").string() + " -o " +
                                    (*dir_ / "resumed").string() + " --resume " + model.string() +
                                    " --log-level warn",
                                &log),
            2)
      << log;
}

std::string coupler_overrides(const fs::path& model, int steps) {
  return " --set solver.cells=[16,32] --set solver.dt=2e-4 --set solver.end_time=0.3"
         " --set solver.initial=random --set solver.amplitude=50"
         " --set coupler.start_time=0.2 --set coupler.training_time=0.02 --set coupler.steps=" +
         std::to_string(steps) +
         " --set coupler.tolerances=[0.5] --set coupler.model=" + model.string() +
         " --log-level warn";
}

TEST_F(NeuralStepFamilyTest, CouplerStartsFromTheTrainedModel) {
  const fs::path model = *dir_ / "model" / "model.pt";
  std::string log;
  ASSERT_EQ(testing::run_surrox("run " + neural_step_source("neural_step.yaml") + " -o " +
                                    (*dir_ / "coupled").string() + coupler_overrides(model, 5),
                                &log),
            0)
      << log;
  const nlohmann::json c = neural_step_summary(*dir_ / "coupled").at("cases")[0];
  EXPECT_EQ(c.at("network").at("model").get<std::string>(), model.string());
  EXPECT_EQ(c.at("pod").at("modes").get<long>(), 8);  // the file's, not coupler.modes
  EXPECT_EQ(c.at("rows").size(), 4u);                 // solver, perturbed, frozen, online
  EXPECT_EQ(testing::run_surrox("run " + neural_step_source("neural_step.yaml") + " -o " +
                                    (*dir_ / "coupled_bad").string() + coupler_overrides(model, 4),
                                &log),
            2)
      << log;
  EXPECT_NE(log.find("per window"), std::string::npos) << log;
}

}  // namespace
}  // namespace surrox::training::neural_step
