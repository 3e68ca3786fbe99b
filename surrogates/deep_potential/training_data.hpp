#pragma once
// DeePMD npy systems prepared for an se_e2_a model: each system's frames with their neighbour
// slots built once, types mapped onto the model's type_map, labels as float64 tensors, and the
// `dp test` metrics (energy RMSE per atom, force RMSE, virial RMSE per atom).
#include <torch/torch.h>

#include <filesystem>
#include <string>
#include <vector>

#include "io/deepmd_system.hpp"
#include "surrogates/deep_potential/se_e2_a.hpp"

namespace surrox::surrogates::deep_potential {

struct SystemData {
  std::string path;
  io::DeepmdFrames frames;
  std::vector<int> types;  // per atom, into the model's type_map
  std::vector<FrameEnvironment> env;
  // Set by precompute_environments: R (frames, atoms, slots, C) and ∂R/∂r_ij
  // (frames, atoms, slots, C, 3), C = 4 (10 with angular_order 2), attached to every
  // batch_frames batch.
  torch::Tensor env_matrix, env_deriv;
  torch::Tensor env3_matrix, env3_deriv;  // the same for a three-body part (its slots)
  long atoms() const { return frames.atoms(); }
  std::vector<long> type_counts(int ntypes) const;
};

// Every system under each path (a system or a folder of them). InputError for an element the
// model's type_map lacks or a frame without energy or force labels (when `labelled`); a
// warning when an atom has more neighbours than `sel`.
std::vector<SystemData> load_systems(const std::vector<std::filesystem::path>& paths,
                                     const SeE2aConfig& config, bool labelled = true);

// Computes each frame's environment matrix and its derivative once (training steps reuse them;
// the frames are fixed). Memory: 128 bytes per neighbour slot (and per three-body slot).
void precompute_environments(SystemData& s, const SeE2aConfig& config);

EnvBatch batch_frames(const SystemData& s, const std::vector<long>& frames, int ntypes);

// The frame indices first … end − 1 in consecutive chunks of at most `chunk` (batches of
// bounded memory for evaluation).
std::vector<std::vector<long>> frame_chunks(long first, long end, long chunk);

struct Labels {
  torch::Tensor energy, force, virial;  // (F), (F, N, 3), (F, 9); virial undefined if absent
};
Labels labels_of(const SystemData& s, const std::vector<long>& frames);

struct ErrorSums {
  double energy2 = 0, force2 = 0, virial2 = 0;  // Σ (ΔE/N)², Σ ΔF², Σ (ΔV/N)²
  long frames = 0, force_values = 0, virial_values = 0, atoms = 0;
  void add(const ErrorSums& o);
  nlohmann::json metrics() const;  // energy_rmse_per_atom, force_rmse, virial_rmse_per_atom, ...
};
// Labels beside the model's values for parity plots (DeePMD-kit's `dp test -d`): energy per
// atom once per frame, force components three per atom per frame.
struct ParityRows {
  std::vector<double> energy_label, energy_model;  // eV/atom
  std::vector<double> force_label, force_model;    // eV/Å
};
// The model on frames [first, last) of `s` (every frame when last < 0), in chunks of `chunk`
// frames, without gradients of weights; with `parity`, the values are appended there too.
ErrorSums evaluate_system(SeE2aModel& model, const SystemData& s, long chunk = 8, long first = 0,
                          long last = -1, ParityRows* parity = nullptr);

}  // namespace surrox::surrogates::deep_potential
