#pragma once
// The neural-step family's model with its training (surrogates/neural_step/ holds the network
// and its file): pretraining on the pairs of a solver run's snapshots (the linear layer from
// least squares, then Adam epochs on both parts, so the pretrained network is at least that
// linear model), and online training TorchFort-style, in memory: learn() adds one (before,
// after) pair of a fallback to a replay buffer and takes a few Adam steps on minibatches from
// it (the newest pair always in the batch). Pretraining and the online updates are tasks of the
// one trainer (training/training_loop.hpp), whose optimizer step keeps Adam's state between
// fallbacks. `surrox train` (family neural_step) runs the pretraining on a dataset and saves the
// network; the neural_step coupler pretrains in its run or starts from such a file.
#include <torch/torch.h>

#include <memory>
#include <random>
#include <vector>

#include "surrogates/neural_step/neural_step_network.hpp"
#include "training/data_parallel.hpp"
#include "training/optimizer_step.hpp"

namespace surrox::training::neural_step {

using surrogates::neural_step::NeuralStepNetwork;
using surrogates::neural_step::PodProjection;

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

class NeuralStepModel {
 public:
  // The network over the snapshots [T, n] (ω every k steps of a solver run), pretrained on
  // their consecutive pairs unless options.epochs is 0; the replay buffer starts with the
  // newest of those pairs when pretraining, empty otherwise.
  NeuralStepModel(const torch::Tensor& snapshots, NeuralStepOptions options);
  // A trained network (from a model file): no pretraining, an empty replay buffer (online
  // training learns from the run's own fallbacks). The architecture options are the network's.
  NeuralStepModel(NeuralStepNetwork network, NeuralStepOptions options);

  PodProjection project(const std::vector<double>& omega) const { return network_.project(omega); }
  std::vector<double> propose(const std::vector<double>& omega, const PodProjection& p) {
    return network_.propose(omega, p);
  }
  // One fallback's pair: the input's projection and ω, and the solver's ω after k steps.
  void learn(const PodProjection& before, const std::vector<double>& omega_before,
             const std::vector<double>& omega_after);

  // The pretrained state (weights, buffer, sampling), to start each run from it; each run
  // starts with fresh Adam moments.
  void keep_start();
  void reset_to_start();

  NeuralStepNetwork& network() { return network_; }
  const surrogates::pod::PodBasis& basis() const { return network_.basis(); }
  const surrogates::pod::PodBasis& change_basis() const { return network_.change_basis(); }
  double pretraining_loss() const { return pretraining_loss_; }
  long parameter_count() const { return network_.parameter_count(); }

 private:
  class InMemoryTask;   // what the two tasks share (no checkpoints)
  class OfflineEpochs;  // the pretraining task: epochs over the training pairs
  class ReplayUpdates;  // the online task: steps on minibatches of the replay buffer

  // One optimizer step on these rows' mean squared error; returns the loss.
  double adam_step(training::OptimizerStep& step, const torch::Tensor& inputs,
                   const torch::Tensor& targets);
  void fit_offline(const surrogates::neural_step::ScaledPairs& pairs);
  std::unique_ptr<training::OptimizerStep> fresh_adam();
  void start_buffer(const surrogates::neural_step::ScaledPairs* pairs);

  NeuralStepOptions options_;
  NeuralStepNetwork network_;
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

}  // namespace surrox::training::neural_step
