#include "training/pod_lstm/pod_lstm_metrics.hpp"

namespace surrox::training::pod_lstm {

nlohmann::json Skill::to_json() const {
  return {{"mean_r2", mean_r2},         {"r2_per_lead", r2_per_lead},
          {"r2_per_mode", r2_per_mode}, {"r2", r2},
          {"rmse_per_lead", rmse},      {"mean_rmse", mean_rmse},
          {"acc_per_lead", acc},        {"mean_acc", mean_acc}};
}

Skill measure_skill(const torch::Tensor& forecast, const torch::Tensor& truth,
                    const torch::Tensor& fields, const surrogates::pod::PodBasis& basis) {
  const long windows = truth.size(0), modes = basis.size(), leads = truth.size(1) / modes;
  const torch::Tensor f = forecast.to(torch::kFloat64).view({windows, leads, modes});
  const torch::Tensor t = truth.to(torch::kFloat64).view({windows, leads, modes});
  const torch::Tensor ss_res = (f - t).pow(2).sum(0);  // [L, N]
  const torch::Tensor ss_tot = (t - t.mean(0)).pow(2).sum(0).clamp_min(1e-300);
  const torch::Tensor r2 = 1 - ss_res / ss_tot;
  const torch::Tensor anomaly = torch::matmul(f, basis.modes.t());  // [W, L, n]
  const torch::Tensor truth_anomaly = fields.to(torch::kFloat64) - basis.mean;
  const torch::Tensor rmse =
      (anomaly - truth_anomaly).pow(2).mean(std::vector<long>{0, 2}).sqrt();  // [L]
  const torch::Tensor forecast_norm = anomaly.pow(2).sum(2).sqrt();
  const torch::Tensor truth_norm = truth_anomaly.pow(2).sum(2).sqrt();
  const torch::Tensor dot = (anomaly * truth_anomaly).sum(2);
  // A forecast without an anomaly (climatology: the training mean, up to round-off) has no
  // direction to correlate: its ACC is 0, not the correlation of round-off with the truth.
  const torch::Tensor acc =
      torch::where(forecast_norm > 1e-9 * truth_norm,
                   dot / (forecast_norm * truth_norm).clamp_min(1e-300), torch::zeros_like(dot))
          .mean(0);

  Skill s;
  const auto to_vector = [](const torch::Tensor& x) {
    const torch::Tensor c = x.contiguous();
    return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
  };
  for (long l = 0; l < leads; ++l) s.r2.push_back(to_vector(r2[l]));
  s.r2_per_lead = to_vector(r2.mean(1));
  s.r2_per_mode = to_vector(r2.mean(0));
  s.rmse = to_vector(rmse);
  s.acc = to_vector(acc);
  s.mean_r2 = r2.mean().item<double>();
  s.mean_rmse = rmse.mean().item<double>();
  s.mean_acc = acc.mean().item<double>();
  return s;
}

}  // namespace surrox::training::pod_lstm
