#pragma once
// How good a neural-step network is on a series of snapshots it did not train on, against the
// baselines any proposal must beat: persistence (ω unchanged: the guard's residual scale) and
// the mean change of the training data (ω + δ̄: the untrained network). Per pair of consecutive
// snapshots: ‖proposal − ω_next‖ / ‖ω_next − ω‖ (persistence scores 1; the guard's tolerance
// is on the same scale) and ‖proposal − ω_next‖ / ‖ω_next‖; the input's POD projection error
// (the guard refuses inputs far from the training states). Rollouts: from starts spread over
// the series, the network fed its own proposals for `rollout` windows, its error at every
// horizon against persistence from the same start.
#include <torch/torch.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "surrogates/neural_step/neural_step_network.hpp"

namespace surrox::training::neural_step {

struct SkillRequest {
  const torch::Tensor& snapshots;  // [T, n], one window apart
  const std::vector<double>& times;
  long first = 0;                     // the first pair's input snapshot
  long rollout = 10;                  // windows per rollout (0: none)
  long rollout_starts = 20;           // rollouts spread over the pairs
  std::filesystem::path pairs_csv;    // per-pair errors (empty: not written)
  std::filesystem::path rollout_csv;  // median errors per horizon (empty: not written)
};

// {"pairs", "model"/"persistence"/"mean_change": {median_relative_to_change, median_relative_l2,
// max_relative_to_change}, "projection_error": {median, max}, "model_over_persistence",
// "rollout": {windows, starts, model: [...], persistence: [...]}}
nlohmann::json neural_step_skill(surrogates::neural_step::NeuralStepNetwork& network,
                                 const SkillRequest& request);

}  // namespace surrox::training::neural_step
