#include "training/pod_lstm/pod_lstm_baselines.hpp"

#include "core/error.hpp"

namespace surrox::training::pod_lstm {

torch::Tensor persistence_forecast(const torch::Tensor& inputs, long modes, long output_steps) {
  const torch::Tensor last = inputs.slice(1, inputs.size(1) - modes).to(torch::kFloat64);
  return last.repeat({1, output_steps});
}

torch::Tensor climatology_forecast(const torch::Tensor& climatology, long windows,
                                   long output_steps) {
  return climatology.to(torch::kFloat64)
      .repeat({output_steps})
      .unsqueeze(0)
      .expand({windows, -1})
      .clone();
}

namespace {
torch::Tensor pod_with_bias(const torch::Tensor& inputs) {
  const torch::Tensor x = inputs.to(torch::kFloat64);
  return torch::cat({x, torch::ones({x.size(0), 1}, x.options())}, 1);
}
}  // namespace

LinearForecaster LinearForecaster::fit(const torch::Tensor& inputs, const torch::Tensor& targets) {
  if (inputs.size(0) < 1)
    throw InputError("the linear baseline needs at least one training window");
  // gelsd: the minimum-norm solution through an SVD, also for the rank-deficient systems of a
  // low-dimensional recurrence (its windows span fewer directions than the window has values).
  LinearForecaster f;
  f.weights = std::get<0>(torch::linalg::lstsq(pod_with_bias(inputs), targets.to(torch::kFloat64),
                                               c10::nullopt, "gelsd"));
  return f;
}

torch::Tensor LinearForecaster::forecast(const torch::Tensor& inputs) const {
  return torch::matmul(pod_with_bias(inputs), weights);
}

}  // namespace surrox::training::pod_lstm
