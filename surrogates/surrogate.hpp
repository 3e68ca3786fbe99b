#pragma once
// A trained model with what it needs to be used safely: the network (a built-in architecture
// or a TorchScript module exported from Python), its input and output channels with their
// normalisation, the sample layout and the grid it was trained on, and the code version.
// `load` refuses files that are not models; `check_fits` refuses a model that does not fit a
// case (exit code 2, saying why).
#include <torch/torch.h>

#include <array>
#include <filesystem>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "surrogates/network.hpp"
#include "surrogates/normalization.hpp"

namespace surrox::surrogates {

struct SurrogateMetadata {
  std::string network;       // registry name ("mlp", "unet") or "torchscript"
  std::string network_yaml;  // the network's section, to rebuild a built-in architecture
  std::string layout;        // "points" or "grid"
  std::array<long, 2> grid_cells{0, 0};  // ni, nj of the training grid (0: any)
  Normalization inputs, outputs;
  std::string surrox_version;
  nlohmann::json training = nlohmann::json::object();  // what the trainer reports (epochs, losses, data)

  nlohmann::json to_json() const;
  static SurrogateMetadata from_json(const nlohmann::json& j, const std::string& source);
};

class Surrogate {
 public:
  Surrogate(std::shared_ptr<Network> network, SurrogateMetadata metadata);

  // A native model written by save(), or a TorchScript file carrying the extra file
  // "surrox.json" with the metadata (torch.jit.save(m, path, _extra_files={...})).
  static std::unique_ptr<Surrogate> load(const std::filesystem::path& path);
  // Atomic write of the network weights and the metadata (built-in architectures only).
  void save(const std::filesystem::path& path) const;

  const SurrogateMetadata& metadata() const { return metadata_; }
  Network& network() { return *network_; }

  // Physical inputs → physical outputs, in the model's layout (normalisation inside).
  torch::Tensor predict(const torch::Tensor& inputs);

  // InputError saying why when the case's grid or input channels differ from the model's.
  void check_fits(const std::array<long, 2>& grid_cells, const std::vector<std::string>& input_names,
                  const std::vector<std::string>& output_names) const;

 private:
  std::shared_ptr<Network> network_;
  SurrogateMetadata metadata_;
};

}  // namespace surrox::surrogates
