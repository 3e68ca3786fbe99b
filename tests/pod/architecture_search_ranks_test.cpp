// ctest-labels: unit mpi
// ctest-ranks: 2
// ctest-libraries: surrox_families
// ctest-pch: torch
// The architecture search on 2 ranks (candidates shared out) equals the search on 1 rank:
// the same candidates, parents and validation R² in search.csv, bit for bit. Both run in this
// process on the test's runtime; the 1-rank search on rank 0 alone (MPI_COMM_SELF).
#include <gtest/gtest.h>
#include <mpi.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/runtime.hpp"
#include "pod/pod_tiny_dataset.hpp"
#include "support/in_process_surrox.hpp"
#include "support/test_paths.hpp"

namespace fs = std::filesystem;

namespace {

// search.csv without its wall-time column.
std::string search_ranks_table(const fs::path& csv) {
  std::ifstream in(csv);
  std::string line, out;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    cells.at(6) = "";
    for (const auto& c : cells) out += c + ",";
    out += "\n";
  }
  return out;
}

}  // namespace

TEST(ArchitectureSearchRanks, TwoRanksEqualOneRank) {
  surrox::Runtime& runtime = surrox::testing::runtime();
  ASSERT_EQ(runtime.size(), 2);
  const fs::path dir = surrox::testing::scratch_dir();
  const fs::path config = dir / "search.yaml";
  if (runtime.root()) surrox::testing::pod_tiny_search_config(dir);  // writes search.yaml there
  MPI_Barrier(runtime.comm());
  const auto search = [&](const fs::path& out) {
    return surrox::testing::run_surrox_in_process(
        {"train", config.string(), "--threads", "1", "--log-level", "warn", "-o", out.string()});
  };
  ASSERT_EQ(search(dir / "two"), 0);
  if (!runtime.root()) return;
  {
    surrox::CommunicatorScope one_rank(runtime, MPI_COMM_SELF);
    ASSERT_EQ(search(dir / "one"), 0);
  }
  const std::string one = search_ranks_table(dir / "one" / "search.csv");
  EXPECT_EQ(one.size() > 100, true) << one;
  EXPECT_EQ(search_ranks_table(dir / "two" / "search.csv"), one);
}
