#pragma once
// The reference forecasters of the POD-LSTM emulator, on the same windows as the network:
// persistence (the last input repeated), climatology (the training mean of the coefficients)
// and a linear model (least squares with a bias from the flattened input window to the
// flattened output window, fitted on training windows). All in raw (unscaled) coefficients,
// float64: inputs [W, input · N] → forecasts [W, output · N].
#include <torch/torch.h>

namespace surrox::training::pod_lstm {

torch::Tensor persistence_forecast(const torch::Tensor& inputs, long modes, long output_steps);
torch::Tensor climatology_forecast(const torch::Tensor& climatology, long windows,
                                   long output_steps);

struct LinearForecaster {
  torch::Tensor weights;  // [input · N + 1, output · N]; the last row is the bias

  static LinearForecaster fit(const torch::Tensor& inputs, const torch::Tensor& targets);
  torch::Tensor forecast(const torch::Tensor& inputs) const;
};

}  // namespace surrox::training::pod_lstm
