#pragma once
// Forecast skill of the POD-LSTM emulator and its baselines on test windows: R² per mode and
// lead time (over the windows, against the truth's variance at that lead), the RMSE of the
// reconstructed field per lead (against the full snapshot, so it includes the truncation to N
// modes) and the anomaly correlation coefficient per lead (the spatial correlation of forecast
// and true anomalies from the training mean field, averaged over windows; 0 for a forecast with
// no anomaly).
#include <torch/torch.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "surrogates/pod/pod_basis.hpp"

namespace surrox::training::pod_lstm {

struct Skill {
  std::vector<std::vector<double>> r2;  // [lead][mode]
  std::vector<double> r2_per_lead, r2_per_mode, rmse, acc;
  double mean_r2 = 0, mean_rmse = 0, mean_acc = 0;
  nlohmann::json to_json() const;
};

// forecast, truth: coefficients [W, L · N]; fields: the true snapshots [W, L, n].
Skill measure_skill(const torch::Tensor& forecast, const torch::Tensor& truth,
                    const torch::Tensor& fields, const surrogates::pod::PodBasis& basis);

}  // namespace surrox::training::pod_lstm
