#pragma once
// DP-GEN's frame selection for concurrent learning: an exploration row whose largest atomic
// force deviation ε_F (surrogates/deep_potential/model_deviation.hpp) lies below `lo` is "accurate"
// (the ensemble agrees, nothing to learn), at or above `hi` "failed" (too far off for the
// configuration to be physical or learnable), and in between a candidate to label with the
// reference potential. At most `max_candidates` are labelled per iteration, drawn uniformly
// (DP-GEN's fp_task_max), so that one long exploration cannot flood the training set.
#include <cstdint>
#include <vector>

#include "surrogates/deep_potential/model_deviation.hpp"

namespace surrox::apps {

struct SelectionRule {
  double lo = 0.05, hi = 0.15;  // eV/Å (DP-GEN's model_devi_f_trust_lo, _hi)
  long max_candidates = 50;
  long first_step = 0;  // rows before this step are equilibration and not counted
  std::uint64_t seed = 1;
};

// A row of one exploration trajectory: its index in the trajectory's model_devi rows (also the
// recorded frame it describes), the MD step and its ε_F maximum.
struct ExplorationFrame {
  int trajectory = 0;
  long row = 0, step = 0;
  double max_devi_f = 0;
};

struct Selection {
  long accurate = 0, candidates = 0, failed = 0;
  std::vector<ExplorationFrame> chosen;  // ordered by trajectory, then row
  long rows() const { return accurate + candidates + failed; }
  double fraction(long count) const {
    return rows() > 0 ? static_cast<double>(count) / static_cast<double>(rows()) : 0.0;
  }
};

// Counts every trajectory's rows (from rule.first_step on) and draws the frames to label.
// Deterministic for a given seed on every platform (its own Fisher–Yates draw).
Selection select_candidates(
    const std::vector<std::vector<surrogates::deep_potential::ModelDeviRow>>& trajectories,
    const SelectionRule& rule);

}  // namespace surrox::apps
