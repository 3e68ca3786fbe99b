#include "training/architecture_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "training/loss_plot.hpp"

namespace surrox::training::pod_lstm {
namespace {

long search_pick(std::mt19937_64& rng, long n) {
  return std::uniform_int_distribution<long>(0, n - 1)(rng);
}

bool search_coin(std::mt19937_64& rng) { return search_pick(rng, 2) == 1; }

// The first two layers have no layer l − 2 to read.
void search_normalise_skips(Architecture& a, const SearchSpace& space) {
  a.skips.resize(a.layers.size(), false);
  for (std::size_t l = 0; l < a.skips.size(); ++l)
    if (l < 2 || !space.skips) a.skips[l] = false;
}

// NaN (a diverged candidate) ranks below every finite score.
bool search_better(double a, double b) {
  if (std::isnan(a)) return false;
  return std::isnan(b) || a > b;
}

}  // namespace

std::string Architecture::to_string() const {
  std::string s;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    if (l) s += "-";
    if (l < skips.size() && skips[l]) s += "s";
    s += std::to_string(layers[l]);
  }
  return s;
}

nlohmann::json Architecture::to_json() const {
  return {{"layers", layers}, {"skips", skips}, {"name", to_string()}};
}

bool SearchSpace::contains(const Architecture& a) const {
  const long n = static_cast<long>(a.layers.size());
  if (n < min_layers || n > max_layers || a.skips.size() != a.layers.size()) return false;
  for (std::size_t l = 0; l < a.layers.size(); ++l) {
    if (std::find(units.begin(), units.end(), a.layers[l]) == units.end()) return false;
    if (a.skips[l] && (l < 2 || !skips)) return false;
  }
  return true;
}

std::pair<std::string, std::string> search_problem(const SearchSpace& space,
                                                   const SearchOptions& o) {
  if (space.max_layers < 1)
    return {"max_layers", "the space holds no architecture: max_layers must be at least 1"};
  if (space.min_layers < 1 || space.min_layers > space.max_layers)
    return {"min_layers", fmt::format("the space holds no architecture: min_layers must lie in "
                                      "[1, max_layers = {}]",
                                      space.max_layers)};
  if (space.units.empty())
    return {"units", "the space holds no architecture: the list of layer widths is empty"};
  for (const long u : space.units)
    if (u < 1) return {"units", fmt::format("layer widths must be at least 1 (got {})", u)};
  if (o.population < 1) return {"population", "must be at least 1"};
  if (o.sample < 1 || o.sample > o.population)
    return {"sample", fmt::format("must lie in [1, population = {}]", o.population)};
  if (o.budget < o.population)
    return {"budget", fmt::format("must be at least the population ({}): the first generation "
                                  "alone is that many random candidates",
                                  o.population)};
  if (o.batch < 1) return {"batch", "must be at least 1"};
  return {};
}

Architecture random_architecture(const SearchSpace& space, std::mt19937_64& rng) {
  Architecture a;
  const long n = space.min_layers + search_pick(rng, space.max_layers - space.min_layers + 1);
  for (long l = 0; l < n; ++l) {
    a.layers.push_back(space.units[static_cast<std::size_t>(
        search_pick(rng, static_cast<long>(space.units.size())))]);
    a.skips.push_back(space.skips && l >= 2 && search_coin(rng));
  }
  return a;
}

Architecture mutate(const Architecture& a, const SearchSpace& space, std::mt19937_64& rng) {
  enum Op { kWidth, kSkip, kAdd, kRemove };
  const long n = static_cast<long>(a.layers.size());
  std::vector<Op> ops;
  if (space.units.size() > 1) ops.push_back(kWidth);
  if (space.skips && n >= 3) ops.push_back(kSkip);
  if (n < space.max_layers) ops.push_back(kAdd);
  if (n > space.min_layers) ops.push_back(kRemove);
  if (ops.empty()) return a;
  Architecture m = a;
  switch (ops[static_cast<std::size_t>(search_pick(rng, static_cast<long>(ops.size())))]) {
    case kWidth: {  // another width for one layer
      const auto l = static_cast<std::size_t>(search_pick(rng, n));
      std::vector<long> others;
      for (const long u : space.units)
        if (u != a.layers[l]) others.push_back(u);
      m.layers[l] =
          others[static_cast<std::size_t>(search_pick(rng, static_cast<long>(others.size())))];
      break;
    }
    case kSkip: {  // flip one skip connection
      const auto l = static_cast<std::size_t>(2 + search_pick(rng, n - 2));
      m.skips[l] = !m.skips[l];
      break;
    }
    case kAdd: {  // a new layer at a random depth
      const long at = search_pick(rng, n + 1);
      m.layers.insert(m.layers.begin() + at, space.units[static_cast<std::size_t>(search_pick(
                                                 rng, static_cast<long>(space.units.size())))]);
      m.skips.insert(m.skips.begin() + at, search_coin(rng));
      break;
    }
    case kRemove: {
      const long at = search_pick(rng, n);
      m.layers.erase(m.layers.begin() + at);
      m.skips.erase(m.skips.begin() + at);
      break;
    }
  }
  search_normalise_skips(m, space);
  return m;
}

AgingEvolution::AgingEvolution(SearchSpace space, SearchOptions options)
    : space_(std::move(space)), options_(options), rng_(options.seed) {
  const auto [key, message] = search_problem(space_, options_);
  if (!key.empty()) throw InputError(fmt::format("search.{}: {}", key, message));
}

std::vector<Candidate> AgingEvolution::propose() {
  const long done = static_cast<long>(history_.size());
  const long size =
      std::min(generation_ == 0 ? options_.population : options_.batch, options_.budget - done);
  std::vector<Candidate> next;
  for (long k = 0; k < size; ++k) {
    Candidate c;
    c.id = done + k;
    c.generation = generation_;
    if (generation_ == 0) {
      c.architecture = random_architecture(space_, rng_);
    } else {
      // The best of `sample` distinct members drawn at random.
      std::vector<std::size_t> members(population_.size());
      for (std::size_t i = 0; i < members.size(); ++i) members[i] = i;
      const Candidate* parent = nullptr;
      for (long s = 0; s < options_.sample; ++s) {
        const auto j =
            static_cast<std::size_t>(s + search_pick(rng_, static_cast<long>(members.size()) - s));
        std::swap(members[static_cast<std::size_t>(s)], members[j]);
        const Candidate& drawn = population_[members[static_cast<std::size_t>(s)]];
        if (!parent || search_better(drawn.score, parent->score)) parent = &drawn;
      }
      c.parent = parent->id;
      c.architecture = mutate(parent->architecture, space_, rng_);
    }
    next.push_back(std::move(c));
  }
  ++generation_;
  return next;
}

void AgingEvolution::report(const std::vector<Candidate>& evaluated) {
  for (const Candidate& c : evaluated) {
    history_.push_back(c);
    population_.push_back(c);
    if (static_cast<long>(population_.size()) > options_.population) population_.pop_front();
  }
}

const Candidate* AgingEvolution::best() const {
  const Candidate* best = nullptr;
  for (const Candidate& c : history_)
    if (!std::isnan(c.score) && (!best || search_better(c.score, best->score))) best = &c;
  return best;
}

void run_aging_evolution(AgingEvolution& search,
                         const std::function<void(std::vector<Candidate>&)>& evaluate) {
  for (std::vector<Candidate> g = search.propose(); !g.empty(); g = search.propose()) {
    evaluate(g);
    search.report(g);
  }
}

void write_search_csv(const std::filesystem::path& path, const std::vector<Candidate>& history) {
  AtomicFile file(path);
  std::ofstream o(file.temporary());
  o << "candidate,generation,architecture,layers,validation_r2,parent,seconds,best_so_far\n";
  o.precision(10);
  double best = std::numeric_limits<double>::quiet_NaN();
  for (const Candidate& c : history) {
    if (search_better(c.score, best)) best = c.score;
    o << c.id << "," << c.generation << "," << c.architecture.to_string() << ","
      << c.architecture.layers.size() << "," << c.score << "," << c.parent << "," << c.seconds
      << "," << best << "\n";
  }
  o.close();
  file.commit();
}

namespace {
constexpr const char* kSearchPlotScript = R"PY(
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
rows = list(csv.DictReader(open(sys.argv[1])))
ids = [int(r["candidate"]) for r in rows]
score = [float(r["validation_r2"]) for r in rows]
best = [float(r["best_so_far"]) for r in rows]
first = [int(r["generation"]) == 0 for r in rows]
fig, ax = plt.subplots(figsize=(6.5, 4))
ax.scatter([i for i, f in zip(ids, first) if f], [s for s, f in zip(score, first) if f],
           s=14, color="tab:gray", label="random (generation 0)")
ax.scatter([i for i, f in zip(ids, first) if not f], [s for s, f in zip(score, first) if not f],
           s=14, color="tab:blue", label="mutated")
ax.step(ids, best, where="post", color="tab:red", label="best so far")
finite = [s for s in score if s == s]
if finite:
    lo = max(min(finite), max(finite) - 1.0)
    ax.set_ylim(lo - 0.02, max(finite) + 0.02)
ax.set_xlabel("candidate")
ax.set_ylabel("validation mean R² (8 leads, all modes)")
ax.set_title("aging evolution over stacked LSTMs")
ax.grid(True, alpha=0.3)
ax.legend(loc="lower right")
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110, format="png")
)PY";
}  // namespace

std::string plot_search(const std::filesystem::path& csv, const std::filesystem::path& png) {
  return plot_with_python(kSearchPlotScript, csv, png);
}

}  // namespace surrox::training::pod_lstm
