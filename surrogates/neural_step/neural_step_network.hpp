#pragma once
// The neural-step family's model (family `neural_step`): a map from a field now to the same
// field one window (k solver steps) later, in POD space. The coefficients a = Φᵀ(ω − ω̄) of the
// state go in; out come the coefficients b of its change over the window in a second POD basis,
// that of the changes (Ψ, mean change δ̄), and the proposal ω + δ̄ + Ψ b. Two bases because the
// change over a few steps is the tendency (advection, β ψ_x, ∇²ω): smaller scales than the
// state, which the state's modes miss (docs/validation/qg.md measures how much).
// The map is a linear layer plus an MLP (tanh) on standardised coefficients; both start at zero
// output (the mean change of the data, nearly persistence) with the MLP's hidden layers drawn
// from the seeded generator. Training lives in training/neural_step/.
//
// Model file (surrogates/model_file.hpp, family "neural_step"): the two bases, the scalings,
// the weights, and metadata (field, points, window time, architecture, what it was trained on).
#include <torch/torch.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "surrogates/pod/pod_basis.hpp"

namespace surrox::surrogates::neural_step {

inline constexpr const char* kFamily = "neural_step";

struct NeuralStepArchitecture {
  long modes = 32;         // of the state (the input)
  long change_modes = 64;  // of the change over a window (the output)
  std::vector<long> hidden = {64, 64};
};

struct PodProjection {
  torch::Tensor coefficients;  // [N]
  double error = 0;            // ‖ω' − Φa‖ / ‖ω'‖, ω' = ω − mean
};

// Scaled training pairs: inputs [T − 1, N] and targets [T − 1, M].
struct ScaledPairs {
  torch::Tensor inputs, targets;
};

class NeuralStepNetwork {
 public:
  // The PODs of `snapshots` [T, n] (the field every window) and of the changes between
  // consecutive ones, the scalings of both; the layers from the generator seeded with `seed`.
  NeuralStepNetwork(const torch::Tensor& snapshots, const NeuralStepArchitecture& architecture,
                    std::uint64_t seed);

  // Reads a model file; InputError naming it for anything that is not a neural-step model.
  static NeuralStepNetwork load(const std::filesystem::path& path);
  // Writes the model file atomically, with `about` (the training run's figures) in its metadata.
  void save(const std::filesystem::path& path, const nlohmann::json& about) const;
  // The metadata a saved file carries (family, points, modes, architecture, and `about`).
  nlohmann::json metadata(const nlohmann::json& about) const;
  // The metadata of the file `load` read (empty for a network built from snapshots): callers
  // take the window and field from here instead of opening the file again.
  const nlohmann::json& stored_metadata() const { return stored_metadata_; }

  // The pairs of consecutive `snapshots` [T, n] as the network trains on them.
  ScaledPairs scaled_pairs(const torch::Tensor& snapshots) const;
  torch::Tensor scale_input(const torch::Tensor& coefficients) const;
  torch::Tensor scale_change(const torch::Tensor& change_coefficients) const;

  // scaled inputs [B, N] → scaled change coefficients [B, M].
  torch::Tensor forward(const torch::Tensor& scaled_input);
  PodProjection project(const std::vector<double>& omega) const;
  // ω + δ̄ + Ψ b with b the network's output for the projection's coefficients.
  std::vector<double> propose(const std::vector<double>& omega, const PodProjection& p);
  // Proposals for a batch of states [B, n] (the same arithmetic as propose, batched).
  torch::Tensor propose_batch(const torch::Tensor& states);

  // The least-squares fit of the linear layer to these scaled pairs (with a bias column).
  void fit_linear_layer(const ScaledPairs& pairs);

  std::vector<torch::Tensor>& parameters() { return parameters_; }
  long parameter_count() const;
  const pod::PodBasis& basis() const { return basis_; }
  const pod::PodBasis& change_basis() const { return change_basis_; }
  const NeuralStepArchitecture& architecture() const { return architecture_; }
  long points() const { return basis_.points(); }

 private:
  NeuralStepNetwork() = default;
  void make_layers();

  NeuralStepArchitecture architecture_;
  pod::PodBasis basis_, change_basis_;
  torch::Tensor in_mean_, in_scale_, out_mean_, out_scale_;  // [N], [N], [M], [M]
  torch::nn::Linear linear_{nullptr};
  torch::nn::Sequential mlp_{nullptr};
  std::vector<torch::Tensor> parameters_;
  nlohmann::json stored_metadata_;
};

}  // namespace surrox::surrogates::neural_step
