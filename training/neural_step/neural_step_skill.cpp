#include "training/neural_step/neural_step_skill.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/statistics.hpp"

namespace surrox::training::neural_step {
namespace {

std::vector<double> skill_values(const torch::Tensor& t) {
  const torch::Tensor c = t.contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

// Row norms of a [B, n] difference.
torch::Tensor skill_norms(const torch::Tensor& rows) { return rows.norm(2, {1}); }

nlohmann::json skill_summary(const std::vector<double>& to_change, const std::vector<double>& l2) {
  return {{"median_relative_to_change", median(to_change)},
          {"max_relative_to_change", *std::max_element(to_change.begin(), to_change.end())},
          {"median_relative_l2", median(l2)}};
}

}  // namespace

nlohmann::json neural_step_skill(surrogates::neural_step::NeuralStepNetwork& network,
                                 const SkillRequest& r) {
  torch::NoGradGuard no_grad;
  const long steps = r.snapshots.size(0);
  const long pairs = steps - 1 - r.first;
  if (pairs < 1)
    throw InputError(
        fmt::format("no pair of snapshots to measure on: {} snapshots from {}", steps, r.first));
  const torch::Tensor before = r.snapshots.slice(0, r.first, steps - 1);
  const torch::Tensor after = r.snapshots.slice(0, r.first + 1, steps);
  const torch::Tensor change_norm = skill_norms(after - before);
  const torch::Tensor after_norm = skill_norms(after);
  const torch::Tensor proposal = network.propose_batch(before);
  const torch::Tensor mean_change =
      before + network.change_basis().reconstruct(
                   torch::zeros({1, network.change_basis().size()}, torch::kFloat64));
  const torch::Tensor centred = before - network.basis().mean;
  const torch::Tensor rest =
      centred - network.basis().reconstruct(network.basis().project(before)) + network.basis().mean;
  const std::vector<double> projection =
      skill_values(skill_norms(rest) / skill_norms(centred).clamp_min(1e-300));

  nlohmann::json out;
  out["pairs"] = pairs;
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> errors;
  const std::vector<std::pair<std::string, torch::Tensor>> candidates = {
      {"model", proposal}, {"persistence", before}, {"mean_change", mean_change}};
  for (const auto& [name, p] : candidates) {
    const torch::Tensor e = skill_norms(p - after);
    errors[name] = {skill_values(e / change_norm.clamp_min(1e-300)),
                    skill_values(e / after_norm.clamp_min(1e-300))};
    out[name] = skill_summary(errors[name].first, errors[name].second);
  }
  out["projection_error"] = {{"median", median(projection)},
                             {"max", *std::max_element(projection.begin(), projection.end())}};
  out["model_over_persistence"] = out["model"]["median_relative_to_change"].get<double>() /
                                  out["persistence"]["median_relative_to_change"].get<double>();

  if (!r.pairs_csv.empty()) {
    std::ostringstream csv;
    csv << "index,time,model_relative_to_change,persistence_relative_to_change,"
           "mean_change_relative_to_change,model_relative_l2,projection_error\n";
    for (long i = 0; i < pairs; ++i)
      csv << fmt::format("{},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}\n", r.first + i,
                         r.times[r.first + i], errors["model"].first[i],
                         errors["persistence"].first[i], errors["mean_change"].first[i],
                         errors["model"].second[i], projection[i]);
    write_text_atomically(r.pairs_csv, csv.str());
  }

  // Rollouts: the network on its own proposals; both errors relative to ‖ω(t + h) − ω(t)‖.
  const long horizon = std::min(r.rollout, pairs);
  if (horizon < 1 || r.rollout_starts < 1) return out;
  const long room = pairs - horizon + 1;
  const long count = std::min(r.rollout_starts, room);
  std::vector<long> starts;
  for (long s = 0; s < count; ++s) starts.push_back(r.first + s * room / count);
  const torch::Tensor index = torch::tensor(starts, torch::kLong);
  torch::Tensor state = r.snapshots.index_select(0, index);
  const torch::Tensor start = state.clone();
  const torch::Tensor mean_step = mean_change.slice(0, 0, 1) - before.slice(0, 0, 1);
  std::vector<double> model_h, mean_change_h;
  for (long h = 1; h <= horizon; ++h) {
    state = network.propose_batch(state);
    const torch::Tensor truth = r.snapshots.index_select(0, index + h);
    const torch::Tensor scale = skill_norms(truth - start).clamp_min(1e-300);
    model_h.push_back(median(skill_values(skill_norms(state - truth) / scale)));
    const torch::Tensor drift = start + double(h) * mean_step;
    mean_change_h.push_back(median(skill_values(skill_norms(drift - truth) / scale)));
  }
  // Persistence scores 1 at every horizon on this scale.
  out["rollout"] = {{"windows", horizon},
                    {"starts", count},
                    {"model_median_relative_to_change", model_h},
                    {"mean_change_median_relative_to_change", mean_change_h}};
  if (!r.rollout_csv.empty()) {
    std::ostringstream csv;
    csv << "horizon,model_relative_to_change,mean_change_relative_to_change\n";
    for (long h = 0; h < horizon; ++h)
      csv << fmt::format("{},{:.17g},{:.17g}\n", h + 1, model_h[h], mean_change_h[h]);
    write_text_atomically(r.rollout_csv, csv.str());
  }
  return out;
}

}  // namespace surrox::training::neural_step
