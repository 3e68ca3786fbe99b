// ctest-labels: unit
// ctest-libraries: surrox_training surrox_io_hdf5
// ctest-pch: torch
// Aging evolution over stacked LSTMs: mutations change one choice and stay in the space, the
// population keeps the most recent P, a seed fixes the whole search; then `surrox train` with a
// `search` section on a tiny series: search.csv, the best is the maximum of its scores and the
// model is saved; an empty space or a budget below the population exits 2.
#include "training/architecture_search.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "pod/pod_tiny_dataset.hpp"
#include "support/test_paths.hpp"

namespace fs = std::filesystem;
using namespace surrox::training::pod_lstm;
using surrox::testing::pod_tiny_search_config;
using surrox::testing::run_surrox;
using surrox::testing::scratch_dir;

namespace {

// A deterministic stand-in for training: prefers two layers of 48 with few skips.
double search_fake_score(const Architecture& a) {
  double s = -std::abs(static_cast<double>(a.layers.size()) - 2.0);
  for (const long w : a.layers) s -= std::abs(static_cast<double>(w) - 48.0) / 100.0;
  for (const bool k : a.skips) s -= k ? 0.05 : 0.0;
  return s;
}

std::vector<Candidate> search_run(std::uint64_t seed) {
  AgingEvolution e(SearchSpace{}, SearchOptions{6, 3, 30, 4, seed});
  run_aging_evolution(e, [](std::vector<Candidate>& g) {
    for (Candidate& c : g) c.score = search_fake_score(c.architecture);
  });
  return e.history();
}

std::string search_read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// (architecture, validation_r2) of every row of search.csv.
std::vector<std::pair<std::string, double>> search_rows(const fs::path& csv) {
  std::vector<std::pair<std::string, double>> rows;
  std::istringstream in(search_read(csv));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    rows.emplace_back(cells.at(2), std::stod(cells.at(4)));
  }
  return rows;
}

}  // namespace

TEST(ArchitectureSearch, MutationChangesOneChoiceAndStaysInTheSpace) {
  SearchSpace space;
  space.min_layers = 1;
  space.max_layers = 5;
  std::mt19937_64 rng(7);
  std::set<std::string> seen;
  for (int trial = 0; trial < 300; ++trial) {
    Architecture a = random_architecture(space, rng);
    ASSERT_TRUE(space.contains(a)) << a.to_string();
    for (int step = 0; step < 10; ++step) {
      const Architecture m = mutate(a, space, rng);
      ASSERT_TRUE(space.contains(m)) << a.to_string() << " -> " << m.to_string();
      ASSERT_FALSE(m == a) << a.to_string();
      const long dl = static_cast<long>(m.layers.size()) - static_cast<long>(a.layers.size());
      EXPECT_LE(std::abs(dl), 1);
      if (dl == 0) {  // one width or one skip differs
        int changed = 0;
        for (std::size_t l = 0; l < a.layers.size(); ++l)
          changed += (a.layers[l] != m.layers[l]) + (a.skips[l] != m.skips[l]);
        EXPECT_EQ(changed, 1) << a.to_string() << " -> " << m.to_string();
      }
      seen.insert(m.to_string());
      a = m;
    }
  }
  EXPECT_GT(seen.size(), 500u);  // the walk explores the space
  // Without searched skips none appears; a one-point space mutates to itself.
  space.skips = false;
  for (int k = 0; k < 200; ++k) {
    const Architecture m = mutate(random_architecture(space, rng), space, rng);
    for (const bool s : m.skips) EXPECT_FALSE(s);
  }
  const SearchSpace point{2, 2, {32}, false};
  const Architecture only = random_architecture(point, rng);
  EXPECT_EQ(only.to_string(), "32-32");
  EXPECT_TRUE(mutate(only, point, rng) == only);
}

TEST(ArchitectureSearch, PopulationKeepsTheMostRecentAndParentsComeFromIt) {
  AgingEvolution e(SearchSpace{}, SearchOptions{5, 2, 17, 3, 11});
  std::vector<long> alive_before;
  for (std::vector<Candidate> g = e.propose(); !g.empty(); g = e.propose()) {
    for (Candidate& c : g) {
      if (c.generation > 0) {  // the parent is alive when the generation is proposed
        EXPECT_NE(std::find(alive_before.begin(), alive_before.end(), c.parent),
                  alive_before.end());
      } else {
        EXPECT_EQ(c.parent, -1);
      }
      c.score = search_fake_score(c.architecture);
    }
    e.report(g);
    alive_before.clear();
    for (const Candidate& c : e.population()) alive_before.push_back(c.id);
    const long n = static_cast<long>(e.history().size());
    ASSERT_EQ(static_cast<long>(e.population().size()), std::min(5L, n));
    for (std::size_t k = 0; k < e.population().size(); ++k)  // the oldest left first
      EXPECT_EQ(e.population()[k].id,
                n - static_cast<long>(e.population().size()) + static_cast<long>(k));
  }
  EXPECT_EQ(e.history().size(), 17u);  // budget: 5 random, then generations of 3 (the last 3)
  EXPECT_EQ(e.history().back().generation, 4);
}

TEST(ArchitectureSearch, SeedFixesTheSearchAndEvolutionImproves) {
  const auto a = search_run(3), b = search_run(3), c = search_run(4);
  ASSERT_EQ(a.size(), 30u);
  bool differs = false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].architecture.to_string(), b[k].architecture.to_string());
    EXPECT_EQ(a[k].parent, b[k].parent);
    differs |= a[k].architecture.to_string() != c[k].architecture.to_string();
  }
  EXPECT_TRUE(differs);
  double first = -1e9, all = -1e9;
  for (const auto& x : a) {
    if (x.generation == 0) first = std::max(first, x.score);
    all = std::max(all, x.score);
  }
  EXPECT_GT(all, first);  // mutation found better than the random start on this easy score
}

TEST(ArchitectureSearch, BadSpaceOrBudgetIsRejected) {
  EXPECT_FALSE(search_problem(SearchSpace{}, SearchOptions{}).first.size());
  EXPECT_EQ(search_problem(SearchSpace{1, 0, {16}, true}, SearchOptions{}).first, "max_layers");
  EXPECT_EQ(search_problem(SearchSpace{3, 2, {16}, true}, SearchOptions{}).first, "min_layers");
  EXPECT_EQ(search_problem(SearchSpace{1, 5, {}, true}, SearchOptions{}).first, "units");
  EXPECT_EQ(search_problem(SearchSpace{}, SearchOptions{8, 3, 7, 4, 1}).first, "budget");
  EXPECT_EQ(search_problem(SearchSpace{}, SearchOptions{4, 5, 8, 4, 1}).first, "sample");
}

TEST(ArchitectureSearchTrain, BestIsTheMaximumOfTheTableAndIsSaved) {
  const fs::path dir = scratch_dir();
  const fs::path config = pod_tiny_search_config(dir);
  std::string log;
  ASSERT_EQ(run_surrox("train " + config.string() + " -o " + (dir / "train").string() +
                           " --threads 1 --log-level warn",
                       &log),
            0)
      << log;
  const auto rows = search_rows(dir / "train" / "search.csv");
  ASSERT_EQ(rows.size(), 4u);
  const auto best_row = std::max_element(
      rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  const nlohmann::json results =
      nlohmann::json::parse(search_read(dir / "train" / "summary.json")).at("results");
  const nlohmann::json& s = results.at("search");
  EXPECT_EQ(s.at("best").at("name").get<std::string>(), best_row->first);
  EXPECT_NEAR(s.at("best_validation_r2").get<double>(), best_row->second, 1e-8);
  EXPECT_EQ(s.at("candidates").get<long>(), 4);
  EXPECT_TRUE(fs::exists(dir / "train" / "model.pt"));
  for (const char* bad : {"search.max_layers=0", "search.units=[]", "search.budget=1"}) {
    EXPECT_EQ(run_surrox("train " + config.string() + " -o " + (dir / "bad").string() +
                             " --log-level warn --set " + bad,
                         &log),
              2)
        << bad << "\n"
        << log;
    EXPECT_NE(log.find("search."), std::string::npos) << bad << "\n" << log;
  }
}
