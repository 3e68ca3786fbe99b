// ctest-labels: regression mpi
// ctest-ranks: 2
// ctest-libraries: surrox_families
// ctest-pch: torch
// network.ranks_per_member: 1 on 2 ranks trains the two members of an ensemble side by side,
// member k on rank k alone, and gives the members the same ensemble trains on one rank (each
// member on one rank either way), bit for bit. Both run in this process on the test's runtime;
// the 1-rank run on rank 0 alone (MPI_COMM_SELF).
#include <gtest/gtest.h>
#include <mpi.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/runtime.hpp"
#include "pod/pod_tiny_dataset.hpp"
#include "support/in_process_surrox.hpp"
#include "support/test_paths.hpp"
#include "training/pod_lstm/pod_lstm_model.hpp"

namespace fs = std::filesystem;
using surrox::training::pod_lstm::PodLstmModel;

TEST(PodLstmMembersRanks, SideBySideMembersEqualOneRank) {
  surrox::Runtime& runtime = surrox::testing::runtime();
  ASSERT_EQ(runtime.size(), 2);
  const fs::path dir = surrox::testing::scratch_dir();
  const fs::path config = dir / "pod.yaml";
  if (runtime.root()) {
    surrox::testing::pod_tiny_dataset(dir / "series.h5", 160);
    std::ofstream(config) << "family: pod_lstm\n"
                             "data: {path: series.h5, modes: 4}\n"
                             "network: {layers: [6], ensemble: 2, ranks_per_member: 1}\n"
                             "training: {epochs: 3, batch_size: 16, seed: 5,\n"
                             "           optimizer: {type: adam, lr: 1.0e-2}}\n";
  }
  MPI_Barrier(runtime.comm());
  const auto train = [&](const fs::path& out) {
    return surrox::testing::run_surrox_in_process(
        {"train", config.string(), "--threads", "1", "--log-level", "warn", "-o", out.string()});
  };
  ASSERT_EQ(train(dir / "two"), 0);
  if (!runtime.root()) return;
  {
    surrox::CommunicatorScope one_rank(runtime, MPI_COMM_SELF);
    ASSERT_EQ(train(dir / "one"), 0);
  }
  std::ifstream record(dir / "two" / "member_1" / "member.json");
  EXPECT_EQ(nlohmann::json::parse(record)["rank"], 1);  // member 1 trained on rank 1
  const PodLstmModel two = PodLstmModel::load(dir / "two" / "model.pt");
  const PodLstmModel one = PodLstmModel::load(dir / "one" / "model.pt");
  ASSERT_EQ(two.members.size(), 2u);
  const torch::Tensor inputs =
      torch::randn({5, 8 * 4}, torch::TensorOptions().dtype(torch::kFloat64));
  for (std::size_t k = 0; k < 2; ++k)
    EXPECT_TRUE(torch::equal(two.member_forecast(k, inputs), one.member_forecast(k, inputs)))
        << "member " << k;
  EXPECT_EQ(two.training["members"], one.training["members"]);
}
