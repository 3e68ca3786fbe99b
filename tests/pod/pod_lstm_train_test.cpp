// ctest-labels: unit
// ctest-libraries: surrox_training surrox_io_hdf5
// ctest-pch: torch
// `surrox train` with family pod_lstm on a tiny synthetic snapshot series (three travelling
// patterns on a 10 × 6 image), then `surrox evaluate`: finite skill for the LSTM and every
// baseline, the linear model near-exact on this noiseless periodic series, a forecasts table;
// a dataset too short for one test window, or on another grid, exits 2.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "io/hdf5_dataset.hpp"
#include "pod/pod_tiny_dataset.hpp"
#include "support/test_paths.hpp"

namespace fs = std::filesystem;
using surrox::testing::pod_tiny_dataset;
using surrox::testing::run_surrox;
using surrox::testing::scratch_dir;

namespace {

nlohmann::json pod_results(const fs::path& dir) {
  std::ifstream in(dir / "summary.json");
  std::stringstream s;
  s << in.rdbuf();
  return nlohmann::json::parse(s.str()).at("results");
}

bool pod_all_finite(const nlohmann::json& j) {
  if (j.is_number()) return std::isfinite(j.get<double>());
  if (j.is_array() || j.is_object()) {
    for (const auto& v : j)
      if (!pod_all_finite(v)) return false;
    return true;
  }
  return true;
}

// The training config on series.h5 beside it: four modes, a small highway LSTM.
void write_pod_config(const fs::path& config, int epochs) {
  std::ofstream(config) << "family: pod_lstm\n"
                           "data: {path: series.h5, modes: 4}\n"
                           "network: {layers: [8, 6, 8], skip: true, highway: true}\n"
                           "training:\n"
                           "  epochs: "
                        << epochs
                        << "\n"
                           "  batch_size: 16\n"
                           "  optimizer: {type: adam, lr: 1.0e-2}\n";
}

}  // namespace

TEST(PodLstmTrain, TrainsAndEvaluatesAgainstBaselines) {
  const fs::path dir = scratch_dir();
  const fs::path data = pod_tiny_dataset(dir / "series.h5", 160);
  const fs::path config = dir / "pod.yaml";
  write_pod_config(config, 3);
  std::string log;
  ASSERT_EQ(run_surrox("train " + config.string() + " -o " + (dir / "train").string() +
                           " --log-level warn",
                       &log),
            0)
      << log;
  const nlohmann::json trained = pod_results(dir / "train");
  EXPECT_EQ(trained.at("windows").at("train").get<long>(), 112 - 15);
  EXPECT_EQ(trained.at("windows").at("test").get<long>(), 24 - 15);
  EXPECT_EQ(trained.at("pod").at("modes").get<long>(), 4);
  // Three travelling patterns are six standing ones; four modes capture most, not all.
  const double captured = trained.at("pod").at("captured_energy").get<double>();
  EXPECT_GT(captured, 0.8);
  EXPECT_LT(captured, 1.0 - 1e-6);
  EXPECT_TRUE(fs::exists(dir / "train" / "model.pt"));
  EXPECT_TRUE(fs::exists(dir / "train" / "metrics.csv"));

  ASSERT_EQ(run_surrox("evaluate " + (dir / "train" / "model.pt").string() + " " + data.string() +
                           " -o " + (dir / "eval").string() + " --log-level warn",
                       &log),
            0)
      << log;
  const nlohmann::json e = pod_results(dir / "eval");
  const nlohmann::json& test = e.at("test");
  EXPECT_EQ(test.at("windows").get<long>(), 9);
  EXPECT_TRUE(pod_all_finite(test)) << test.dump();
  for (const char* name : {"lstm", "persistence", "climatology", "linear"}) {
    ASSERT_TRUE(test.contains(name)) << name;
    EXPECT_EQ(test.at(name).at("rmse_per_lead").size(), 8u) << name;
    EXPECT_EQ(test.at(name).at("acc_per_lead").size(), 8u) << name;
    EXPECT_EQ(test.at(name).at("r2_per_mode").size(), 4u) << name;
  }
  // The data are noiseless and periodic: the linear map forecasts the coefficients almost
  // exactly, far better than persistence; its field error is the truncation floor.
  EXPECT_GT(test.at("linear").at("mean_r2").get<double>(), 0.99);
  EXPECT_LT(test.at("persistence").at("mean_r2").get<double>(), 0.5);
  const auto floor = test.at("projection_rmse_per_lead").get<std::vector<double>>();
  const auto linear_rmse = test.at("linear").at("rmse_per_lead").get<std::vector<double>>();
  for (std::size_t l = 0; l < floor.size(); ++l) EXPECT_LE(floor[l], linear_rmse[l] * (1 + 1e-9));
  for (const double acc : test.at("climatology").at("acc_per_lead").get<std::vector<double>>())
    EXPECT_EQ(acc, 0.0);  // no anomaly, no correlation
  EXPECT_GT(test.at("linear").at("acc_per_lead").at(0).get<double>(), 0.9);
  EXPECT_TRUE(fs::exists(dir / "eval" / "forecasts.csv"));

  // 30 snapshots: the test part (the last 30 − 21 − 4 = 5) holds no 16-step window.
  const fs::path short_data = pod_tiny_dataset(dir / "short.h5", 30);
  EXPECT_EQ(run_surrox("evaluate " + (dir / "train" / "model.pt").string() + " " +
                           short_data.string() + " -o " + (dir / "short").string(),
                       &log),
            2)
      << log;
  EXPECT_NE(log.find("too few snapshots"), std::string::npos) << log;
  const fs::path other_grid = pod_tiny_dataset(dir / "grid.h5", 160, 8, 6);
  EXPECT_EQ(run_surrox("evaluate " + (dir / "train" / "model.pt").string() + " " +
                           other_grid.string() + " -o " + (dir / "grid").string(),
                       &log),
            2)
      << log;
}

TEST(PodLstmTrain, StoppedAndResumedTrainingContinuesExactly) {
  // Issue 39's training restarts for this family: --max-epochs, then --resume into the same
  // folder, gives the straight run's loss in every epoch (the seconds column differs).
  const fs::path dir = scratch_dir();
  pod_tiny_dataset(dir / "series.h5", 160);
  const fs::path config = dir / "pod.yaml";
  write_pod_config(config, 4);
  const std::string train = "train " + config.string() + " --threads 1 --log-level warn -o ";
  std::string log;
  ASSERT_EQ(run_surrox(train + (dir / "whole").string(), &log), 0) << log;
  ASSERT_EQ(run_surrox(train + (dir / "part").string() + " --max-epochs 2", &log), 0) << log;
  ASSERT_EQ(run_surrox(train + (dir / "part").string() + " --resume " +
                           (dir / "part" / "checkpoint.pt").string(),
                       &log),
            0)
      << log;
  auto losses = [](const fs::path& csv) {
    std::ifstream in(csv);
    std::vector<std::string> rows;
    for (std::string line; std::getline(in, line);) rows.push_back(line.substr(0, line.rfind(',')));
    return rows;
  };
  const auto whole = losses(dir / "whole" / "metrics.csv");
  EXPECT_EQ(whole.size(), 1u + 4u);  // header and four epochs
  EXPECT_EQ(whole, losses(dir / "part" / "metrics.csv"));
}
