#include "training/neural_step/neural_step_model.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "training/training_loop.hpp"

namespace surrox::training::neural_step {
namespace {

surrogates::neural_step::NeuralStepArchitecture architecture_of(const NeuralStepOptions& o) {
  return {o.modes, o.change_modes, o.hidden};
}

}  // namespace

NeuralStepModel::NeuralStepModel(const torch::Tensor& snapshots, NeuralStepOptions options)
    : options_(std::move(options)),
      network_(snapshots, architecture_of(options_), options_.seed),
      rng_(options_.seed) {
  one_process_ = training::single_process();
  optimizer_ = fresh_adam();
  const surrogates::neural_step::ScaledPairs pairs = network_.scaled_pairs(snapshots);
  start_buffer(options_.epochs > 0 ? &pairs : nullptr);
  if (options_.epochs > 0) fit_offline(pairs);
  keep_start();
}

NeuralStepModel::NeuralStepModel(NeuralStepNetwork network, NeuralStepOptions options)
    : options_(std::move(options)), network_(std::move(network)), rng_(options_.seed) {
  options_.modes = network_.basis().size();
  options_.change_modes = network_.change_basis().size();
  options_.hidden = network_.architecture().hidden;
  one_process_ = training::single_process();
  optimizer_ = fresh_adam();
  start_buffer(nullptr);
  keep_start();
}

// The replay buffer starts with the newest training pairs when pretraining, empty otherwise
// (online training then learns from the run's own fallbacks alone).
void NeuralStepModel::start_buffer(const surrogates::neural_step::ScaledPairs* pairs) {
  const long n = network_.basis().size(), m = network_.change_basis().size();
  const long keep = pairs ? std::min<long>(options_.buffer, pairs->inputs.size(0)) : 0;
  buffer_in_ = torch::zeros({options_.buffer, n}, torch::kFloat64);
  buffer_out_ = torch::zeros({options_.buffer, m}, torch::kFloat64);
  if (pairs) {
    buffer_in_.slice(0, 0, keep).copy_(pairs->inputs.slice(0, pairs->inputs.size(0) - keep));
    buffer_out_.slice(0, 0, keep).copy_(pairs->targets.slice(0, pairs->targets.size(0) - keep));
  }
  buffer_size_ = keep;
  buffer_next_ = keep % options_.buffer;
}

std::unique_ptr<training::OptimizerStep> NeuralStepModel::fresh_adam() {
  const double rate = options_.learning_rate;
  return std::make_unique<training::OptimizerStep>(
      network_.parameters(),
      [rate](std::vector<torch::Tensor> parameters) {
        return std::make_unique<torch::optim::Adam>(std::move(parameters),
                                                    torch::optim::AdamOptions(rate));
      },
      *one_process_, training::OptimizerStepOptions{});
}

double NeuralStepModel::adam_step(training::OptimizerStep& step, const torch::Tensor& inputs,
                                  const torch::Tensor& targets) {
  double value = 0;
  step.step([&] {
    const torch::Tensor loss = torch::mse_loss(network_.forward(inputs), targets);
    loss.backward();
    value = loss.item<double>();
  });
  return value;
}

// What both in-memory tasks share: the model, the loss of the last unit, its one learning rate
// and no checkpoints.
class NeuralStepModel::InMemoryTask : public training::TrainingTask {
 public:
  explicit InMemoryTask(NeuralStepModel& model) : model_(model) {}
  long units_done() const override { return 0; }
  double last_loss() const override { return loss_; }
  double last_learning_rate() const override { return model_.options_.learning_rate; }
  std::string divergence_hint() const override {
    return " (learning_rate: the coupler's, or training.learning_rate of a neural_step training config)";
  }
  void save(torch::serialize::OutputArchive&) const override {}
  void load(torch::serialize::InputArchive&, const std::string&) override {}

 protected:
  NeuralStepModel& model_;
  double loss_ = 0;
};

class NeuralStepModel::OfflineEpochs final : public InMemoryTask {
 public:
  OfflineEpochs(NeuralStepModel& model, const torch::Tensor& inputs, const torch::Tensor& targets)
      : InMemoryTask(model), inputs_(inputs), targets_(targets) {}
  long units() const override { return model_.options_.epochs; }
  const char* unit_name() const override { return "pretraining epoch"; }
  void train_unit(long, training::OptimizerStep& step) override {
    const long rows = inputs_.size(0), batch = model_.options_.batch;
    const torch::Tensor order = torch::randperm(rows, torch::kLong);
    loss_ = 0;
    for (long s = 0; s < rows; s += batch) {
      const torch::Tensor idx = order.slice(0, s, std::min(rows, s + batch));
      loss_ += model_.adam_step(step, inputs_.index_select(0, idx), targets_.index_select(0, idx));
    }
  }

 private:
  const torch::Tensor& inputs_;
  const torch::Tensor& targets_;
};

class NeuralStepModel::ReplayUpdates final : public InMemoryTask {
 public:
  ReplayUpdates(NeuralStepModel& model, long newest) : InMemoryTask(model), newest_(newest) {}
  long units() const override { return model_.options_.updates; }
  const char* unit_name() const override { return "online update"; }
  void train_unit(long, training::OptimizerStep& step) override {
    const long batch = std::min(model_.options_.batch, model_.buffer_size_);
    std::uniform_int_distribution<long> pick(0, model_.buffer_size_ - 1);
    std::vector<long> rows{newest_};
    while (static_cast<long>(rows.size()) < batch) rows.push_back(pick(model_.rng_));
    const torch::Tensor idx = torch::tensor(rows, torch::kLong);
    loss_ = model_.adam_step(step, model_.buffer_in_.index_select(0, idx),
                             model_.buffer_out_.index_select(0, idx));
  }

 private:
  long newest_;
};

void NeuralStepModel::fit_offline(const surrogates::neural_step::ScaledPairs& pairs) {
  network_.fit_linear_layer(pairs);
  OfflineEpochs epochs(*this, pairs.inputs, pairs.targets);
  training::run_units(epochs, *optimizer_);
  torch::NoGradGuard no_grad;
  pretraining_loss_ = torch::mse_loss(network_.forward(pairs.inputs), pairs.targets).item<double>();
}

void NeuralStepModel::learn(const PodProjection& before, const std::vector<double>& omega_before,
                            const std::vector<double>& omega_after) {
  const long n = static_cast<long>(omega_before.size());
  const torch::Tensor after_t =
      torch::from_blob(const_cast<double*>(omega_after.data()), {n}, torch::kFloat64);
  const torch::Tensor before_t =
      torch::from_blob(const_cast<double*>(omega_before.data()), {n}, torch::kFloat64);
  const torch::Tensor change =
      network_.change_basis().project((after_t - before_t).unsqueeze(0))[0];
  const long capacity = options_.buffer;
  buffer_in_[buffer_next_].copy_(network_.scale_input(before.coefficients));
  buffer_out_[buffer_next_].copy_(network_.scale_change(change));
  const long newest = buffer_next_;
  buffer_next_ = (buffer_next_ + 1) % capacity;
  buffer_size_ = std::min(capacity, buffer_size_ + 1);
  ReplayUpdates updates(*this, newest);
  training::run_units(updates, *optimizer_);
}

void NeuralStepModel::keep_start() {
  start_parameters_.clear();
  for (const auto& p : network_.parameters()) start_parameters_.push_back(p.detach().clone());
  start_buffer_in_ = buffer_in_.clone();
  start_buffer_out_ = buffer_out_.clone();
  start_buffer_size_ = buffer_size_;
  start_buffer_next_ = buffer_next_;
}

void NeuralStepModel::reset_to_start() {
  {
    torch::NoGradGuard no_grad;
    auto& parameters = network_.parameters();
    for (std::size_t i = 0; i < parameters.size(); ++i) parameters[i].copy_(start_parameters_[i]);
  }
  optimizer_ = fresh_adam();
  buffer_in_.copy_(start_buffer_in_);
  buffer_out_.copy_(start_buffer_out_);
  buffer_size_ = start_buffer_size_;
  buffer_next_ = start_buffer_next_;
  rng_.seed(options_.seed);
}

}  // namespace surrox::training::neural_step
