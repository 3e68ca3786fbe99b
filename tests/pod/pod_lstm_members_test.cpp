// ctest-labels: regression slow
// ctest-libraries: surrox_training surrox_io_hdf5
// ctest-pch: torch
// The POD-LSTM ensemble's members are jobs of the workflow job runner (pod_lstm_members.hpp):
// each leaves its record and weights in its folder, so an ensemble interrupted after some
// members (here: the last member's folder lost, as a kill before it started) resumes with the
// finished members read back, not trained again, and ends with the straight run's model, bit
// for bit.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "pod/pod_tiny_dataset.hpp"
#include "support/test_paths.hpp"
#include "training/pod_lstm/pod_lstm_model.hpp"

namespace fs = std::filesystem;
using surrox::testing::run_surrox;
using surrox::training::pod_lstm::PodLstmModel;

namespace {

void members_config(const fs::path& path) {
  std::ofstream(path) << "family: pod_lstm\n"
                         "data: {path: series.h5, modes: 4}\n"
                         "network: {layers: [6], highway: true, ensemble: 3}\n"
                         "training: {epochs: 3, batch_size: 16, seed: 5,\n"
                         "           optimizer: {type: adam, lr: 1.0e-2}}\n";
}

int members_train(const fs::path& config, const fs::path& out, const std::string& extra,
                  std::string* log) {
  return run_surrox("train " + config.string() + " -o " + out.string() + " --threads 1 " + extra,
                    log);
}

}  // namespace

// A member's record: its status and what it trained.
nlohmann::json members_record(const fs::path& dir) {
  std::ifstream in(dir / "member.json");
  return nlohmann::json::parse(in);
}

TEST(PodLstmMembers, AnInterruptedEnsembleResumesWithTheFinishedMembersSkipped) {
  const fs::path dir = surrox::testing::scratch_dir();
  surrox::testing::pod_tiny_dataset(dir / "series.h5", 160);
  members_config(dir / "pod.yaml");
  std::string log;
  ASSERT_EQ(members_train(dir / "pod.yaml", dir / "straight", "--log-level warn", &log), 0) << log;
  ASSERT_EQ(members_train(dir / "pod.yaml", dir / "parts", "--log-level warn", &log), 0) << log;
  EXPECT_EQ(members_record(dir / "parts")["status"], "ok");
  EXPECT_EQ(members_record(dir / "parts" / "member_1")["seed"], 6);
  // The run killed before member 2 started: its folder and the model are gone.
  fs::remove_all(dir / "parts" / "member_2");
  fs::remove(dir / "parts" / "model.pt");
  ASSERT_EQ(
      members_train(dir / "pod.yaml", dir / "parts",
                    "--log-level info --resume " + (dir / "parts/checkpoint.pt").string(), &log),
      0)
      << log;
  EXPECT_NE(log.find("ensemble member 1 of 3 (seed 5) finished earlier; skipped"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("ensemble member 2 of 3 (seed 6) finished earlier; skipped"),
            std::string::npos)
      << log;
  EXPECT_EQ(log.find("ensemble member 3 of 3 (seed 7) finished earlier"), std::string::npos);
  EXPECT_EQ(members_record(dir / "parts" / "member_2")["status"], "ok");

  const PodLstmModel straight = PodLstmModel::load(dir / "straight" / "model.pt");
  const PodLstmModel resumed = PodLstmModel::load(dir / "parts" / "model.pt");
  ASSERT_EQ(resumed.members.size(), 3u);
  const torch::Tensor inputs =
      torch::randn({5, 8 * 4}, torch::TensorOptions().dtype(torch::kFloat64));
  for (std::size_t k = 0; k < 3; ++k)
    EXPECT_TRUE(
        torch::equal(resumed.member_forecast(k, inputs), straight.member_forecast(k, inputs)))
        << "member " << k;
  EXPECT_EQ(resumed.training["members"], straight.training["members"]);

  // Without --resume a training starts over: every member trains again.
  ASSERT_EQ(members_train(dir / "pod.yaml", dir / "parts", "--log-level info", &log), 0) << log;
  EXPECT_EQ(log.find("finished earlier"), std::string::npos) << log;
}
