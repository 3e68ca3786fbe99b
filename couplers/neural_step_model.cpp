#include "couplers/neural_step_model.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "training/training_loop.hpp"

namespace surrox::couplers {
namespace {

constexpr auto kNeuralStepDtype = torch::kFloat64;

torch::Tensor neural_step_vector(const std::vector<double>& v) {
  return torch::from_blob(const_cast<double*>(v.data()), {static_cast<long>(v.size())},
                          kNeuralStepDtype);
}

// Per-column mean and standard deviation, at least 1 % of the largest: a mode the training
// data hardly moved along would otherwise blow up inputs that do move along it.
std::pair<torch::Tensor, torch::Tensor> neural_step_moments(const torch::Tensor& rows) {
  const torch::Tensor mean = rows.mean(0);
  const torch::Tensor scale = rows.std(0, /*unbiased=*/false);
  const double largest = scale.max().item<double>();
  return {mean, scale.clamp_min(largest > 0 ? 1e-2 * largest : 1.0)};
}

}  // namespace

NeuralStepModel::NeuralStepModel(const torch::Tensor& snapshots, NeuralStepOptions options)
    : options_(std::move(options)), rng_(options_.seed) {
  if (snapshots.size(0) < 3)
    throw Error("the neural-step model needs at least three snapshots (two pairs)");
  torch::manual_seed(options_.seed);
  basis_ = surrogates::pod::compute_pod(snapshots, options_.modes);
  const long rows = snapshots.size(0) - 1;
  const torch::Tensor changes = snapshots.slice(0, 1) - snapshots.slice(0, 0, rows);
  change_basis_ = surrogates::pod::compute_pod(changes, options_.change_modes);
  const long n = basis_.size(), m = change_basis_.size();
  const torch::Tensor before = basis_.project(snapshots.slice(0, 0, rows));
  const torch::Tensor change = change_basis_.project(changes);
  std::tie(in_mean_, in_scale_) = neural_step_moments(before);
  std::tie(out_mean_, out_scale_) = neural_step_moments(change);

  linear_ = torch::nn::Linear(n, m);
  mlp_ = torch::nn::Sequential();
  long width = n;
  for (long h : options_.hidden) {
    mlp_->push_back(torch::nn::Linear(width, h));
    mlp_->push_back(torch::nn::Tanh());
    width = h;
  }
  auto head = torch::nn::Linear(width, m);
  mlp_->push_back(head);
  linear_->to(kNeuralStepDtype);
  mlp_->to(kNeuralStepDtype);
  {
    torch::NoGradGuard no_grad;
    head->weight.zero_();
    head->bias.zero_();
    linear_->weight.zero_();
    linear_->bias.zero_();
  }
  for (const auto& p : linear_->parameters()) parameters_.push_back(p);
  for (const auto& p : mlp_->parameters()) parameters_.push_back(p);
  one_process_ = training::single_process();
  optimizer_ = fresh_adam();

  const torch::Tensor inputs = (before - in_mean_) / in_scale_;
  const torch::Tensor targets = (change - out_mean_) / out_scale_;
  // The replay buffer starts with the training pairs when pretraining, empty otherwise (online
  // training then learns from the run's own fallbacks alone).
  const long keep = options_.epochs > 0 ? std::min<long>(options_.buffer, inputs.size(0)) : 0;
  buffer_in_ = torch::zeros({options_.buffer, n}, kNeuralStepDtype);
  buffer_out_ = torch::zeros({options_.buffer, m}, kNeuralStepDtype);
  buffer_in_.slice(0, 0, keep).copy_(inputs.slice(0, inputs.size(0) - keep));
  buffer_out_.slice(0, 0, keep).copy_(targets.slice(0, targets.size(0) - keep));
  buffer_size_ = keep;
  buffer_next_ = keep % options_.buffer;
  if (options_.epochs > 0) fit_offline(inputs, targets);
  keep_start();
}

long NeuralStepModel::parameter_count() const {
  long count = 0;
  for (const auto& p : parameters_) count += p.numel();
  return count;
}

torch::Tensor NeuralStepModel::forward(const torch::Tensor& scaled_input) {
  return linear_->forward(scaled_input) + mlp_->forward(scaled_input);
}

std::unique_ptr<training::OptimizerStep> NeuralStepModel::fresh_adam() {
  const double rate = options_.learning_rate;
  return std::make_unique<training::OptimizerStep>(
      parameters_,
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
    const torch::Tensor loss = torch::mse_loss(forward(inputs), targets);
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
  std::string divergence_hint() const override { return " (coupler.learning_rate)"; }
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

void NeuralStepModel::fit_offline(const torch::Tensor& inputs, const torch::Tensor& targets) {
  // The linear layer from least squares (with a bias column) first, then Adam on both parts.
  {
    torch::NoGradGuard no_grad;
    const torch::Tensor x =
        torch::cat({inputs, torch::ones({inputs.size(0), 1}, kNeuralStepDtype)}, 1);
    const torch::Tensor w = std::get<0>(torch::linalg::lstsq(x, targets, c10::nullopt, "gelsd"));
    const long n = inputs.size(1);
    linear_->weight.copy_(w.slice(0, 0, n).t());
    linear_->bias.copy_(w[n]);
  }
  OfflineEpochs epochs(*this, inputs, targets);
  training::run_units(epochs, *optimizer_);
  torch::NoGradGuard no_grad;
  pretraining_loss_ = torch::mse_loss(forward(inputs), targets).item<double>();
}

PodProjection NeuralStepModel::project(const std::vector<double>& omega) const {
  const torch::Tensor centred = neural_step_vector(omega) - basis_.mean;
  PodProjection p;
  p.coefficients = torch::matmul(centred, basis_.modes);
  const torch::Tensor rest = centred - torch::matmul(basis_.modes, p.coefficients);
  const double norm = centred.norm().item<double>();
  p.error = norm > 0 ? rest.norm().item<double>() / norm : 0.0;
  return p;
}

std::vector<double> NeuralStepModel::propose(const std::vector<double>& omega,
                                             const PodProjection& p) {
  torch::NoGradGuard no_grad;
  const torch::Tensor scaled = ((p.coefficients - in_mean_) / in_scale_).unsqueeze(0);
  const torch::Tensor change = forward(scaled).squeeze(0) * out_scale_ + out_mean_;
  const torch::Tensor next = neural_step_vector(omega) + change_basis_.reconstruct(change);
  return std::vector<double>(next.data_ptr<double>(), next.data_ptr<double>() + next.numel());
}

void NeuralStepModel::learn(const PodProjection& before, const std::vector<double>& omega_before,
                            const std::vector<double>& omega_after) {
  const torch::Tensor change = change_basis_.project(
      (neural_step_vector(omega_after) - neural_step_vector(omega_before)).unsqueeze(0))[0];
  const long capacity = options_.buffer;
  buffer_in_[buffer_next_].copy_((before.coefficients - in_mean_) / in_scale_);
  buffer_out_[buffer_next_].copy_((change - out_mean_) / out_scale_);
  const long newest = buffer_next_;
  buffer_next_ = (buffer_next_ + 1) % capacity;
  buffer_size_ = std::min(capacity, buffer_size_ + 1);
  ReplayUpdates updates(*this, newest);
  training::run_units(updates, *optimizer_);
}

void NeuralStepModel::keep_start() {
  start_parameters_.clear();
  for (const auto& p : parameters_) start_parameters_.push_back(p.detach().clone());
  start_buffer_in_ = buffer_in_.clone();
  start_buffer_out_ = buffer_out_.clone();
  start_buffer_size_ = buffer_size_;
  start_buffer_next_ = buffer_next_;
}

void NeuralStepModel::reset_to_start() {
  {
    torch::NoGradGuard no_grad;
    for (std::size_t i = 0; i < parameters_.size(); ++i) parameters_[i].copy_(start_parameters_[i]);
  }
  optimizer_ = fresh_adam();
  buffer_in_.copy_(start_buffer_in_);
  buffer_out_.copy_(start_buffer_out_);
  buffer_size_ = start_buffer_size_;
  buffer_next_ = start_buffer_next_;
  rng_.seed(options_.seed);
}

}  // namespace surrox::couplers
