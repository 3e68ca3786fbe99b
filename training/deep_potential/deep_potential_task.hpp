#pragma once
// The deep_potential family's task for the one trainer (training_loop.hpp): a unit is one step
// of DeePMD-kit's schedule. Each step draws a system in proportion to its frames and
// batch_size frames of it (one seeded generator, the same on every rank), sets DeePMD's
// learning rate lr₀·r^⌊t/decay_steps⌋ and the loss prefactors tied to it, and trains this
// rank's share of the frames; every disp_freq steps a metrics.csv row (train and validation
// RMSEs) and a log line. Its checkpoint entry carries the config it was trained with
// (deep_potential_family_checkpoint.hpp), the generator and the metrics so far.
#include <chrono>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "core/case_node.hpp"
#include "surrogates/deep_potential/se_e2_a.hpp"
#include "surrogates/deep_potential/training_data.hpp"
#include "training/data_parallel.hpp"
#include "training/deep_potential/deep_potential_family_checkpoint.hpp"
#include "training/training_task.hpp"

namespace surrox::training {

// `dp test` metrics over the first `frames` frames of each system (all when frames < 0), the
// frames split over the ranks and the sums combined.
surrogates::deep_potential::ErrorSums dp_measure(
    surrogates::deep_potential::SeE2aModel& model,
    const std::vector<surrogates::deep_potential::SystemData>& systems, long frames,
    DataParallel& parallel);

class DeepPotentialTask final : public TrainingTask {
 public:
  // `root`: the whole config (its model, data and training sections are the checkpoint's
  // identity); `training`: its training section.
  DeepPotentialTask(surrogates::deep_potential::SeE2aModel& model,
                    const std::vector<surrogates::deep_potential::SystemData>& train,
                    const std::vector<surrogates::deep_potential::SystemData>& validation,
                    const CaseNode& root, DataParallel& parallel);

  long units() const override { return total_steps_; }
  const char* unit_name() const override { return "step"; }
  long units_done() const override { return state_.step; }
  double last_loss() const override { return last_loss_; }
  double last_learning_rate() const override { return lr_; }
  // Its loss prefactors grow as the rate decays; it has no gradient clipping.
  std::string divergence_hint() const override { return " (optimizer.lr) or the limit_pref_*"; }
  void train_unit(long step, OptimizerStep& optimizer) override;

  void save(torch::serialize::OutputArchive& archive) const override;
  void load(torch::serialize::InputArchive& archive, const std::string& source) override;

  const DpTrainingState& state() const { return state_; }
  // Where this invocation started: the step and the earlier invocations' training time.
  long first_step() const { return first_step_; }
  double first_seconds() const { return state_.seconds; }
  // Training time of this and the earlier invocations.
  double elapsed() const;

 private:
  void write_row(double lr, double pref_e, double pref_f);

  surrogates::deep_potential::SeE2aModel& model_;
  const std::vector<surrogates::deep_potential::SystemData>& train_;
  const std::vector<surrogates::deep_potential::SystemData>& validation_;
  DataParallel& parallel_;
  CaseNode loss_;
  nlohmann::json identity_;
  double lr0_, decay_rate_;
  long total_steps_, decay_steps_, batch_size_, disp_, validation_frames_;
  std::mt19937_64 rng_;
  std::discrete_distribution<int> pick_system_;
  DpTrainingState state_;
  long first_step_ = 0;
  double lr_ = 0, last_loss_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace surrox::training
