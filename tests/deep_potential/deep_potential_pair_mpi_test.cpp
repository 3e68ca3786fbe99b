// ctest-labels: mpi unit
// ctest-ranks: 2
// ctest-libraries: surrox_families
// ctest-pch: torch
// Learned MD on 2 ranks (spatial decomposition, ghosts from the other rank) equals 1 rank to
// round-off: thermo rows of 40 NVE steps of 216 silicon atoms on an untrained se_e2_a + se_e3
// model (its three-body slots come from owned and ghost atoms alike), and the model-deviation
// rows of a two-model ensemble (the second model se_e2_a alone).
#include <gtest/gtest.h>

#include <fstream>

#include "core/runtime.hpp"
#include "deep_potential_pair_support.hpp"

namespace surrox::couplers {
namespace {
using namespace dp_pair_test;
namespace fs = std::filesystem;

struct PairRun {
  nlohmann::json results;
  std::vector<std::vector<double>> devi;  // model_devi.csv rows
  int ranks = 0;
};

PairRun run_pair_case(const std::string& text, const fs::path& out) {
  PairRun r;
  auto solver = md::test::make_solver(text);
  r.ranks = solver->neighbors().ranks();
  while (!solver->finished()) solver->advance();
  Runtime& runtime = surrox::testing::runtime();
  if (runtime.root()) fs::create_directories(out);
  MPI_Barrier(runtime.comm());
  solver->finalize(out, r.results);
  MPI_Barrier(runtime.comm());
  std::ifstream in(out / "model_devi.csv");
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream ls(line);
    for (std::string cell; std::getline(ls, cell, ',');) row.push_back(std::stod(cell));
    r.devi.push_back(row);
  }
  return r;
}

TEST(DeepPotentialPairMpi, TwoRanksEqualOneRank) {
  Runtime& runtime = surrox::testing::runtime();
  ASSERT_EQ(runtime.size(), 2);
  const fs::path dir = surrox::testing::scratch_dir();
  if (runtime.root()) {
    write_pair_test_model((dir / "a.pt").string(), 1, /*three_body=*/true);
    write_pair_test_model((dir / "b.pt").string(), 2);
  }
  surrox::families::register_builtin_families();
  MPI_Barrier(runtime.comm());
  const std::string text = pair_test_case("models: ['" + (dir / "a.pt").string() + "', '" +
                                              (dir / "b.pt").string() + "'], out_freq: 10",
                                          40, 3, 5);
  PairRun one;
  {
    CommunicatorScope alone(runtime, MPI_COMM_SELF);
    one = run_pair_case(text, dir / ("one" + std::to_string(runtime.rank())));
  }
  const PairRun two = run_pair_case(text, dir / "two");
  EXPECT_EQ(one.ranks, 1);
  EXPECT_EQ(two.ranks, 2);
  const auto& a = one.results["thermo"];
  const auto& b = two.results["thermo"];
  ASSERT_EQ(a.size(), 9u);
  ASSERT_EQ(a.size(), b.size());
  double worst = 0;
  for (std::size_t k = 0; k < a.size(); ++k)
    for (const char* key : {"temp", "e_pair", "e_kin", "e_total", "press"}) {
      const double x = a[k][key], y = b[k][key];
      worst = std::max(worst, std::fabs(x - y) / std::max(std::fabs(x), 1e-300));
    }
  EXPECT_LT(worst, 1e-10);
  // Untrained models: the temperature moves, so the run is not trivially static.
  EXPECT_GT(std::fabs(a[8]["temp"].get<double>() - a[0]["temp"].get<double>()), 0.1);
  ASSERT_EQ(one.devi.size(), 5u);  // steps 0, 10, ..., 40
  ASSERT_EQ(one.devi.size(), two.devi.size());
  // Relative to the largest virial (columns 1-3) or force (4-6) deviation of the run: the
  // perfect crystal of step 0 has deviations of round-off size.
  double scale_v = 1e-300, scale_f = 1e-300, worst_devi = 0;
  for (const auto& row : one.devi) {
    scale_v = std::max({scale_v, row[1], row[2], row[3]});
    scale_f = std::max({scale_f, row[4], row[5], row[6]});
  }
  for (std::size_t k = 0; k < one.devi.size(); ++k) {
    EXPECT_EQ(one.devi[k][0], two.devi[k][0]);
    for (std::size_t c = 1; c < 7; ++c)
      worst_devi = std::max(
          worst_devi, std::fabs(one.devi[k][c] - two.devi[k][c]) / (c < 4 ? scale_v : scale_f));
  }
  EXPECT_GT(one.devi.back()[4], 1e-3);  // two different models deviate
  EXPECT_LT(worst_devi, 1e-8);
  if (runtime.root())
    std::printf(
        "216 atoms, 40 steps: 2 ranks vs 1: max relative thermo difference %.3g, model deviation "
        "%.3g (max_devi_f at step 40: %.6g eV/Å)\n",
        worst, worst_devi, one.devi.back()[4]);
}

}  // namespace
}  // namespace surrox::couplers
