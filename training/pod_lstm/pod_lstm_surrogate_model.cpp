#include "training/pod_lstm/pod_lstm_surrogate_model.hpp"

#include <fmt/format.h>

namespace surrox::training::pod_lstm {

PodLstmSurrogateModel::PodLstmSurrogateModel(PodLstmModel model) : model_(std::move(model)) {}

std::unique_ptr<surrogates::SurrogateModel> PodLstmSurrogateModel::load(
    const std::filesystem::path& path) {
  return std::make_unique<PodLstmSurrogateModel>(PodLstmModel::load(path));
}

surrogates::NamedTensors PodLstmSurrogateModel::predict(const surrogates::NamedTensors& inputs) {
  return {{"forecast", model_.forecast(inputs.at("coefficients"))}};
}

std::vector<surrogates::TensorSignature> PodLstmSurrogateModel::inputs() const {
  const auto& o = model_.options;
  return {{"coefficients",
           fmt::format("[windows, {} steps × {} modes] float64, raw POD coefficients of '{}'",
                       o.input_steps, o.modes, model_.field)}};
}

std::vector<surrogates::TensorSignature> PodLstmSurrogateModel::outputs() const {
  const auto& o = model_.options;
  return {{"forecast", fmt::format("[windows, {} steps × {} modes] float64, the ensemble mean "
                                   "of {} member(s)",
                                   o.output_steps, o.modes, model_.members.size())}};
}

surrogates::ModelLoaderRegistry::Entry pod_lstm_model_loader() {
  return {&PodLstmSurrogateModel::load, surrox::Schema(),
          "POD-LSTM emulators: forecasts of POD coefficient windows"};
}

}  // namespace surrox::training::pod_lstm
