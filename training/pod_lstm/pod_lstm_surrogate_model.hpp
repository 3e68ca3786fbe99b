#pragma once
// The `pod_lstm` family behind the one model interface (surrogates/surrogate_model.hpp): a thin
// adapter owning a PodLstmModel and forwarding to its load, save and forecast (the ensemble's
// mean). With N the basis' modes and the network's input and output steps:
//   input   "coefficients"  [W, input_steps · N] float64 raw POD coefficient windows, the
//                           steps in order, each step's N modes together;
//   output  "forecast"      [W, output_steps · N] float64 the next steps' coefficients.
// The basis itself (PodLstmModel::basis) projects snapshots to coefficients and back.
#include "surrogates/surrogate_model.hpp"
#include "training/pod_lstm/pod_lstm_model.hpp"

namespace surrox::training::pod_lstm {

class PodLstmSurrogateModel final : public surrogates::SurrogateModel {
 public:
  explicit PodLstmSurrogateModel(PodLstmModel model);
  static std::unique_ptr<surrogates::SurrogateModel> load(const std::filesystem::path& path);

  std::string family() const override { return kFamilyName; }
  nlohmann::json metadata() const override { return model_.metadata(); }
  void save(const std::filesystem::path& path) const override { model_.save(path); }
  surrogates::NamedTensors predict(const surrogates::NamedTensors& inputs) override;
  std::vector<surrogates::TensorSignature> inputs() const override;
  std::vector<surrogates::TensorSignature> outputs() const override;

  PodLstmModel& model() { return model_; }

 private:
  PodLstmModel model_;
};

// The loader `families/pod_lstm.cpp` registers.
surrogates::ModelLoaderRegistry::Entry pod_lstm_model_loader();

}  // namespace surrox::training::pod_lstm
