#include "surrogates/neural_step/neural_step_surrogate_model.hpp"

#include <fmt/format.h>

namespace surrox::surrogates::neural_step {

NeuralStepSurrogateModel::NeuralStepSurrogateModel(NeuralStepNetwork network,
                                                   nlohmann::json metadata)
    : network_(std::move(network)), metadata_(std::move(metadata)) {}

std::unique_ptr<SurrogateModel> NeuralStepSurrogateModel::load(const std::filesystem::path& path) {
  NeuralStepNetwork network = NeuralStepNetwork::load(path);
  nlohmann::json metadata = network.stored_metadata();
  return std::make_unique<NeuralStepSurrogateModel>(std::move(network), std::move(metadata));
}

NamedTensors NeuralStepSurrogateModel::predict(const NamedTensors& inputs) {
  return {{"next", network_.propose_batch(inputs.at("state"))}};
}

std::vector<TensorSignature> NeuralStepSurrogateModel::inputs() const {
  return {{"state", fmt::format("[states, {} points] float64, '{}' now", network_.points(),
                                metadata_.value("field", "?"))}};
}

std::vector<TensorSignature> NeuralStepSurrogateModel::outputs() const {
  return {{"next", fmt::format("[states, {} points] float64, the proposal {:g} later",
                               network_.points(), metadata_.value("window_time", 0.0))}};
}

ModelLoaderRegistry::Entry neural_step_model_loader() {
  return {&NeuralStepSurrogateModel::load, surrox::Schema(),
          "neural-step proposals: a field one window ahead"};
}

}  // namespace surrox::surrogates::neural_step
