#pragma once
// A trained model with what it needs to be used safely: the network (a built-in architecture
// or a TorchScript module exported from Python), its input and output channels with their
// normalisation, what its inputs live on and how it takes its samples from them (the grid it
// was trained on, a row per cell or the whole grid) and the code version.
// `load` refuses files that are not models; `check_fits` refuses a model that does not fit a
// case (exit code 2, saying why).
#include <torch/torch.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "surrogates/input_description.hpp"
#include "surrogates/network.hpp"
#include "surrogates/normalization.hpp"
#include "surrogates/output_scaling.hpp"

namespace surrox::surrogates {

struct SurrogateMetadata {
  std::string network;       // registry name ("mlp", "unet") or "torchscript"
  std::string network_yaml;  // the network's section, to rebuild a built-in architecture
  std::vector<InputDescription> input_domains;  // what the inputs live on (the training grid, ...)
  Normalization inputs, outputs;
  OutputScaling output_scaling;  // what the outputs were divided by in training (none: empty)
  std::string surrox_version;
  nlohmann::json training =
      nlohmann::json::object();  // what the trainer reports (epochs, losses, data)

  // Writes format_version 2, with the key "layout" (points | grid) that readers before the
  // grid's "samples" take; reads 1 (a "grid_cells" pair, now a structured_grid input) and 2.
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

  // Physical inputs → physical outputs, shaped as its inputs' samples (normalisation and the
  // output scaling inside).
  torch::Tensor predict(const torch::Tensor& inputs);

  // InputError saying why when the case cannot feed the model: an input domain the model
  // describes that the case lacks or has of another kind, another grid for a whole-grid model,
  // or other input or output channels.
  void check_fits(const std::vector<InputDescription>& case_domains,
                  const std::vector<std::string>& input_names,
                  const std::vector<std::string>& output_names) const;

 private:
  std::shared_ptr<Network> network_;
  SurrogateMetadata metadata_;
};

}  // namespace surrox::surrogates
