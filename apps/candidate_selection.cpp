#include "apps/candidate_selection.hpp"

#include <algorithm>
#include <random>

namespace surrox::apps {

Selection select_candidates(
    const std::vector<std::vector<surrogates::deep_potential::ModelDeviRow>>& trajectories,
    const SelectionRule& rule) {
  Selection s;
  std::vector<ExplorationFrame> pool;
  for (int t = 0; t < static_cast<int>(trajectories.size()); ++t) {
    const auto& rows = trajectories[t];
    for (long r = 0; r < static_cast<long>(rows.size()); ++r) {
      const auto& row = rows[r];
      if (row.step < rule.first_step) continue;
      // A NaN deviation (a model blew up) is a failure, not a candidate.
      if (!(row.max_devi_f < rule.hi)) {
        ++s.failed;
      } else if (row.max_devi_f < rule.lo) {
        ++s.accurate;
      } else {
        ++s.candidates;
        pool.push_back({t, r, row.step, row.max_devi_f});
      }
    }
  }
  // Partial Fisher–Yates: the first `take` entries become a uniform draw without replacement.
  // std::shuffle's algorithm is the library's choice; this one is the same everywhere.
  std::mt19937_64 rng(rule.seed);
  const long take = std::min<long>(rule.max_candidates, static_cast<long>(pool.size()));
  for (long i = 0; i < take; ++i) {
    const long remaining = static_cast<long>(pool.size()) - i;
    const long j = i + static_cast<long>(rng() % static_cast<std::uint64_t>(remaining));
    std::swap(pool[i], pool[j]);
  }
  s.chosen.assign(pool.begin(), pool.begin() + take);
  std::sort(s.chosen.begin(), s.chosen.end(), [](const auto& a, const auto& b) {
    return a.trajectory < b.trajectory || (a.trajectory == b.trajectory && a.row < b.row);
  });
  return s;
}

}  // namespace surrox::apps
