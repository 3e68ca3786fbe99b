#pragma once
// Aging evolution (Real et al. 2019, "regularized evolution"), as SC20 and DeepHyper search
// stacked-LSTM architectures: a population of the P most recently evaluated candidates; each
// new candidate is a one-choice mutation of the best of S members sampled from it; the oldest
// dies when a new one enters. Proposals come in generations (the first P random, then `batch`
// at a time) that are proposed from the population as it stands, so the candidates, their
// seeds and hence the whole search depend on the options and the seed only, not on how many
// ranks evaluate a generation.
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace surrox::training::pod_lstm {

// A stacked LSTM: widths bottom first; skips[l] (l ≥ 2) adds layer l − 2's output to layer l's
// input (SC20's skip connections from the previous two layers).
struct Architecture {
  std::vector<long> layers;
  std::vector<bool> skips;
  // "32-64-s16": widths, "s" before a layer that has the skip connection.
  std::string to_string() const;
  nlohmann::json to_json() const;
  bool operator==(const Architecture& o) const { return layers == o.layers && skips == o.skips; }
};

struct SearchSpace {
  long min_layers = 1, max_layers = 5;
  std::vector<long> units = {16, 32, 48, 64, 80, 96};
  bool skips = true;  // whether skip connections are searched (else never)
  bool contains(const Architecture& a) const;
};

struct SearchOptions {
  long population = 8, sample = 3, budget = 24, batch = 4;
  std::uint64_t seed = 1;
};

// What is wrong with a space or options, as (key, message); key empty when nothing is.
std::pair<std::string, std::string> search_problem(const SearchSpace& space,
                                                   const SearchOptions& options);

struct Candidate {
  long id = 0, generation = 0, parent = -1;  // parent: the id mutated (-1: random)
  Architecture architecture;
  double score = std::numeric_limits<double>::quiet_NaN();  // validation mean R²
  double seconds = 0;
};

Architecture random_architecture(const SearchSpace& space, std::mt19937_64& rng);
// Changes exactly one choice (a width, a skip, one layer added or removed) and stays in the
// space; returns `a` unchanged only when the space holds nothing else reachable.
Architecture mutate(const Architecture& a, const SearchSpace& space, std::mt19937_64& rng);

class AgingEvolution {
 public:
  AgingEvolution(SearchSpace space, SearchOptions options);
  // The next generation's candidates (ids in order, scores unset); empty once the budget is used.
  std::vector<Candidate> propose();
  // Records an evaluated generation: into the history, and into the population, the oldest
  // leaving while it holds more than P.
  void report(const std::vector<Candidate>& evaluated);
  const std::deque<Candidate>& population() const { return population_; }
  const std::vector<Candidate>& history() const { return history_; }
  // The highest finite score so far (the first on ties); null when none is finite.
  const Candidate* best() const;

 private:
  SearchSpace space_;
  SearchOptions options_;
  std::mt19937_64 rng_;
  std::deque<Candidate> population_;
  std::vector<Candidate> history_;
  long generation_ = 0;
};

// Runs the search to its budget; `evaluate` fills score and seconds of one generation.
void run_aging_evolution(AgingEvolution& search,
                         const std::function<void(std::vector<Candidate>&)>& evaluate);

// search.csv: candidate, generation, architecture, layers, validation_r2, parent, seconds,
// best_so_far.
void write_search_csv(const std::filesystem::path& path, const std::vector<Candidate>& history);
// search.png from search.csv (python3-matplotlib); "" on success, else why there is none.
std::string plot_search(const std::filesystem::path& csv, const std::filesystem::path& png);

}  // namespace surrox::training::pod_lstm
