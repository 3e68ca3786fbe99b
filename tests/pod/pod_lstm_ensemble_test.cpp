// ctest-labels: regression slow
// ctest-libraries: surrox_training surrox_io_hdf5
// ctest-pch: torch
// network.ensemble: the pod_lstm family trains members from seeds seed, seed + 1, … and
// forecasts their mean. Member 0 is the one-network run of the same seed, bit for bit; the
// members differ; the model file round-trips them; evaluate reports each member's skill; an
// ensemble run interrupted by --max-epochs and resumed equals the uninterrupted run.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "pod/pod_tiny_dataset.hpp"
#include "support/test_paths.hpp"
#include "training/pod_lstm/pod_lstm_model.hpp"

namespace fs = std::filesystem;
using surrox::testing::pod_tiny_dataset;
using surrox::testing::run_surrox;
using surrox::testing::scratch_dir;
using surrox::training::pod_lstm::PodLstmModel;

namespace {

nlohmann::json pod_ensemble_results(const fs::path& dir) {
  std::ifstream in(dir / "summary.json");
  std::stringstream s;
  s << in.rdbuf();
  return nlohmann::json::parse(s.str()).at("results");
}

void pod_ensemble_config(const fs::path& path, long ensemble) {
  std::ofstream(path) << "family: pod_lstm\n"
                         "data: {path: series.h5, modes: 4}\n"
                         "network: {layers: [6], highway: true, ensemble: "
                      << ensemble
                      << "}\n"
                         "training:\n"
                         "  epochs: 4\n"
                         "  batch_size: 16\n"
                         "  seed: 5\n"
                         "  optimizer: {type: adam, lr: 1.0e-2}\n";
}

int pod_ensemble_train(const fs::path& config, const fs::path& out, const std::string& extra,
                       std::string* log) {
  return run_surrox(
      "train " + config.string() + " -o " + out.string() + " --log-level warn " + extra, log);
}

}  // namespace

TEST(PodLstmEnsemble, ForecastIsTheMeanOfSeededMembers) {
  const fs::path dir = scratch_dir();
  const fs::path data = pod_tiny_dataset(dir / "series.h5", 160);
  pod_ensemble_config(dir / "one.yaml", 1);
  pod_ensemble_config(dir / "three.yaml", 3);
  std::string log;
  ASSERT_EQ(pod_ensemble_train(dir / "one.yaml", dir / "one", "", &log), 0) << log;
  ASSERT_EQ(pod_ensemble_train(dir / "three.yaml", dir / "three", "", &log), 0) << log;
  const PodLstmModel one = PodLstmModel::load(dir / "one" / "model.pt");
  const PodLstmModel three = PodLstmModel::load(dir / "three" / "model.pt");
  ASSERT_EQ(one.members.size(), 1u);
  ASSERT_EQ(three.members.size(), 3u);
  EXPECT_TRUE(fs::exists(dir / "three" / "member_1" / "metrics.csv"));
  EXPECT_TRUE(fs::exists(dir / "three" / "member_2" / "checkpoint.pt"));

  const torch::Tensor inputs =
      torch::randn({7, 8 * 4}, torch::TensorOptions().dtype(torch::kFloat64)) * 3;
  // Member 0 is the one-network run (same seed for weights and batches).
  EXPECT_TRUE(torch::equal(three.member_forecast(0, inputs), one.forecast(inputs)));
  const torch::Tensor f1 = three.member_forecast(1, inputs), f2 = three.member_forecast(2, inputs);
  EXPECT_GT((f1 - f2).abs().max().item<double>(), 1e-6);
  const torch::Tensor mean = (three.member_forecast(0, inputs) + f1 + f2) / 3.0;
  EXPECT_LT((three.forecast(inputs) - mean).abs().max().item<double>(), 1e-12);

  const nlohmann::json trained = pod_ensemble_results(dir / "three");
  EXPECT_EQ(trained.at("ensemble").at("members").get<long>(), 3);
  EXPECT_TRUE(trained.at("finished").get<bool>());
  ASSERT_EQ(run_surrox("evaluate " + (dir / "three" / "model.pt").string() + " " + data.string() +
                           " -o " + (dir / "eval").string() + " --log-level warn",
                       &log),
            0)
      << log;
  EXPECT_EQ(pod_ensemble_results(dir / "eval").at("test").at("lstm_members_mean_r2").size(), 3u);

  // Interrupted after 2 epochs (member 0 unfinished: the run stops there), then resumed: member
  // 0 completes and members 1, 2 train; the result equals the uninterrupted run.
  ASSERT_EQ(pod_ensemble_train(dir / "three.yaml", dir / "parts", "--max-epochs 2", &log), 0)
      << log;
  const nlohmann::json part = pod_ensemble_results(dir / "parts");
  EXPECT_FALSE(part.at("finished").get<bool>());
  EXPECT_EQ(part.at("ensemble").at("members").get<long>(), 1);
  ASSERT_EQ(pod_ensemble_train(dir / "three.yaml", dir / "parts",
                               "--resume " + (dir / "parts" / "checkpoint.pt").string(), &log),
            0)
      << log;
  const PodLstmModel resumed = PodLstmModel::load(dir / "parts" / "model.pt");
  ASSERT_EQ(resumed.members.size(), 3u);
  EXPECT_TRUE(torch::equal(resumed.forecast(inputs), three.forecast(inputs)));
}
