#pragma once
// A trained POD-LSTM emulator with everything `surrox evaluate` needs on a dataset: the POD
// basis (mean and modes of the training snapshots), the per-mode scaling (training part
// only), the stacked LSTM (or an ensemble of them, trained from different seeds, whose mean is
// the forecast), the fitted baselines (the climatology and the linear map), the field
// it reads and the time split. A torch archive with the tensors and a "metadata" JSON entry
// ("family": "pod_lstm"), the format every surrox model file shares (docs/formats.md).
#include <torch/torch.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "surrogates/pod/pod_basis.hpp"
#include "surrogates/pod/stacked_lstm.hpp"
#include "training/pod_lstm/pod_lstm_baselines.hpp"
#include "training/pod_lstm/pod_lstm_data.hpp"

namespace surrox::training::pod_lstm {

inline constexpr const char* kFamilyName = "pod_lstm";

struct PodLstmModel {
  surrogates::pod::StackedLstmOptions options;
  // The ensemble's members (one without network.ensemble), all of `options`' architecture.
  std::vector<std::shared_ptr<surrogates::pod::StackedLstm>> members;
  surrogates::pod::PodBasis basis;
  Scaling scaling;
  torch::Tensor climatology;  // [N]: training mean of the coefficients
  LinearForecaster linear;
  std::string field = "psi";
  double train_fraction = 0.7, validation_fraction = 0.15;
  nlohmann::json training;  // what the run reports about itself

  // Raw coefficient windows [W, input · N] → forecasts [W, output · N] (float64): the mean of
  // the members' forecasts.
  torch::Tensor forecast(const torch::Tensor& inputs) const;
  // Member k's own forecast.
  torch::Tensor member_forecast(std::size_t k, const torch::Tensor& inputs) const;
  // The ensemble's forecast from its members' (what forecast() returns), for a caller that
  // also needs each member's.
  static torch::Tensor ensemble_mean(const std::vector<torch::Tensor>& member_forecasts);

  nlohmann::json metadata() const;
  void save(const std::filesystem::path& path) const;  // atomic
  // InputError naming the file for anything that is not a pod_lstm model.
  static PodLstmModel load(const std::filesystem::path& path);
};

}  // namespace surrox::training::pod_lstm
