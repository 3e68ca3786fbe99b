// ctest-labels: unit mpi
// ctest-libraries: surrox_training
// ctest-pch: torch
// The architecture search on 2 ranks (candidates shared out) equals the search on 1 rank:
// the same candidates, parents and validation R² in search.csv, bit for bit.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "pod/pod_tiny_dataset.hpp"
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
  const fs::path dir = surrox::testing::scratch_dir();
  const fs::path config = surrox::testing::pod_tiny_search_config(dir);
  std::string log;
  const std::string args = " train " + config.string() + " --threads 1 --log-level warn -o ";
  ASSERT_EQ(surrox::testing::run_surrox(args + (dir / "one").string(), &log), 0) << log;
  ASSERT_EQ(surrox::testing::run_command("mpiexec --allow-run-as-root --oversubscribe -n 2 " +
                                             surrox::testing::surrox_executable().string() + args +
                                             (dir / "two").string(),
                                         &log),
            0)
      << log;
  const std::string one = search_ranks_table(dir / "one" / "search.csv");
  EXPECT_EQ(one.size() > 100, true) << one;
  EXPECT_EQ(search_ranks_table(dir / "two" / "search.csv"), one);
}
