#pragma once
// The `neural_step` family behind the one model interface (surrogates/surrogate_model.hpp): a
// thin adapter owning a NeuralStepNetwork and the metadata of its file, forwarding to its load,
// save and batched proposal. With n the field's points:
//   input   "state"  [B, n] float64, the field now (the grid's interior nodes, x fastest);
//   output  "next"   [B, n] float64, the proposal one window (metadata "window_time") later.
#include "surrogates/neural_step/neural_step_network.hpp"
#include "surrogates/surrogate_model.hpp"

namespace surrox::surrogates::neural_step {

class NeuralStepSurrogateModel final : public SurrogateModel {
 public:
  NeuralStepSurrogateModel(NeuralStepNetwork network, nlohmann::json metadata);
  static std::unique_ptr<SurrogateModel> load(const std::filesystem::path& path);

  std::string family() const override { return kFamily; }
  nlohmann::json metadata() const override { return metadata_; }
  void save(const std::filesystem::path& path) const override { network_.save(path, metadata_); }
  NamedTensors predict(const NamedTensors& inputs) override;
  std::vector<TensorSignature> inputs() const override;
  std::vector<TensorSignature> outputs() const override;

 private:
  NeuralStepNetwork network_;
  nlohmann::json metadata_;
};

// The loader `families/neural_step.cpp` registers.
ModelLoaderRegistry::Entry neural_step_model_loader();

}  // namespace surrox::surrogates::neural_step
