#pragma once
// A trained MeshfreeFlowNet with what it needs to be applied to a Rayleigh–Bénard run: the
// network, its channel normalisation (training runs only), downsampling, crop and the grid it
// was trained on. Saved as a torch archive: "network" (the weights) and "metadata" (JSON with
// "family": "super_resolution"), the format every surrox model file shares.
#include <torch/torch.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "surrogates/super_resolution/boussinesq_residual.hpp"
#include "surrogates/super_resolution/meshfree_flow_net.hpp"
#include "training/super_resolution/super_resolution_data.hpp"

namespace surrox::training::super_resolution {

inline constexpr const char* kFamilyName = "super_resolution";

struct SuperResolutionModel {
  surrogates::super_resolution::MeshfreeFlowNet network{nullptr};
  surrogates::super_resolution::MeshfreeFlowNetOptions options;
  std::array<double, 4> mean{}, std{};  // p, b, u, w
  Downsampling downsampling;
  std::array<double, 3> spacing{};  // frame interval, dz, dx of the training runs
  double rayleigh = 0, prandtl = 0, gamma = 0;
  long evaluation_time_tiles = 0, residual_points = 0;
  nlohmann::json training;  // what the run reports about itself (epochs, runs, losses)

  std::array<long, 3> crop() const { return options.grid; }
  torch::Tensor normalise(const torch::Tensor& channels_first) const;   // [B, 4, ...]
  torch::Tensor denormalise(const torch::Tensor& channels_last) const;  // [..., 4]
  // Residual scales for crops of `run` (its own Ra and Pr).
  surrogates::super_resolution::BoussinesqScales scales(const RbRun& run,
                                                        const LowResGrid& grid) const;

  nlohmann::json metadata() const;
  void save(const std::filesystem::path& path) const;  // atomic
  // InputError naming the file for anything that is not a super-resolution model.
  static SuperResolutionModel load(const std::filesystem::path& path);

  // InputError unless `run` has the grid spacing and frame interval the model was trained on
  // and is large enough for its crops.
  void check_compatible(const RbRun& run) const;
};

}  // namespace surrox::training::super_resolution
