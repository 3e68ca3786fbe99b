#pragma once
// The network of the neural-step coupler: the POD coefficients a = Φᵀ(ω − ω̄) of the QG
// vorticity now → the coefficients b of its change over k solver steps in a second POD basis,
// that of the changes (Ψ, mean change δ̄), and the proposal ω + δ̄ + Ψ b. Two bases because the
// change over a few steps is the tendency (advection, β ψ_x, ∇²ω): smaller scales than the
// state, which the state's modes miss (docs/validation/qg.md measures how much).
// The map is a linear layer plus an MLP on standardised coefficients (both trainable);
// pretraining starts the linear layer from the least-squares fit with the MLP's last layer at
// zero (so the pretrained network is at least that linear model), and without pretraining the
// network starts at zero output: the mean increment of the data, nearly persistence.
// Online training (TorchFort-style, in memory): learn() adds one (before, after) pair of a
// fallback to a replay buffer and takes a few Adam steps on minibatches from it (the newest
// pair always in the batch). Pretraining and the online updates are tasks of the one trainer
// (training/training_loop.hpp), whose optimizer step keeps Adam's state between fallbacks.
#include <torch/torch.h>

#include <random>
#include <vector>

#include "surrogates/pod/pod_basis.hpp"
#include "training/data_parallel.hpp"
#include "training/optimizer_step.hpp"

namespace surrox::couplers {

struct NeuralStepOptions {
  long modes = 32;         // of the state (the input)
  long change_modes = 64;  // of the change over k steps (the output)
  std::vector<long> hidden = {64, 64};
  long epochs = 200;  // offline Adam epochs over the training pairs; 0: no pretraining
  long batch = 64;
  double learning_rate = 1e-3;
  long buffer = 4000;  // replay buffer of online training (pairs)
  long updates = 2;    // Adam steps per fallback in online training
  std::uint64_t seed = 1;
};

struct PodProjection {
  torch::Tensor coefficients;  // [N]
  double error = 0;            // ‖ω' − Φa‖ / ‖ω'‖, ω' = ω − mean
};

class NeuralStepModel {
 public:
  // The PODs of the snapshots [T, n] (ω every k steps of a solver run) and of the changes
  // between consecutive ones, the pairs; pretrains unless options.epochs is 0.
  NeuralStepModel(const torch::Tensor& snapshots, NeuralStepOptions options);

  PodProjection project(const std::vector<double>& omega) const;
  // ω + δ̄ + Ψ b with b the network's output for the projection's coefficients.
  std::vector<double> propose(const std::vector<double>& omega, const PodProjection& p);
  // One fallback's pair: the input's projection and ω, and the solver's ω after k steps.
  void learn(const PodProjection& before, const std::vector<double>& omega_before,
             const std::vector<double>& omega_after);

  // The pretrained state (weights, buffer, optimizer, sampling), to start each run from it.
  void keep_start();
  void reset_to_start();

  const surrogates::pod::PodBasis& basis() const { return basis_; }
  const surrogates::pod::PodBasis& change_basis() const { return change_basis_; }
  double pretraining_loss() const { return pretraining_loss_; }
  long parameter_count() const;

 private:
  class InMemoryTask;   // what the two tasks share (no checkpoints)
  class OfflineEpochs;  // the pretraining task: epochs over the training pairs
  class ReplayUpdates;  // the online task: steps on minibatches of the replay buffer

  torch::Tensor forward(const torch::Tensor& scaled_input);
  // One optimizer step on these rows' mean squared error; returns the loss.
  double adam_step(training::OptimizerStep& step, const torch::Tensor& inputs,
                   const torch::Tensor& targets);
  void fit_offline(const torch::Tensor& inputs, const torch::Tensor& targets);
  std::unique_ptr<training::OptimizerStep> fresh_adam();

  NeuralStepOptions options_;
  surrogates::pod::PodBasis basis_, change_basis_;
  torch::Tensor in_mean_, in_scale_, out_mean_, out_scale_;  // [N] each
  torch::nn::Linear linear_{nullptr};
  torch::nn::Sequential mlp_{nullptr};
  std::vector<torch::Tensor> parameters_;
  std::unique_ptr<training::DataParallel> one_process_;
  std::unique_ptr<training::OptimizerStep> optimizer_;
  // Replay buffer of scaled (input, target) rows; a ring once full.
  torch::Tensor buffer_in_, buffer_out_;
  long buffer_size_ = 0, buffer_next_ = 0;
  std::mt19937_64 rng_;
  double pretraining_loss_ = NAN;
  // keep_start()'s copies.
  std::vector<torch::Tensor> start_parameters_;
  torch::Tensor start_buffer_in_, start_buffer_out_;
  long start_buffer_size_ = 0, start_buffer_next_ = 0;
};

}  // namespace surrox::couplers
