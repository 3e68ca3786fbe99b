#include "couplers/super_resolution/super_resolution_statistics.hpp"

#include <cmath>
#include <numeric>

namespace surrox::couplers {
namespace {

using torch::indexing::Slice;

// Per-frame, per-unit-column integral over the layer of a squared gradient: x differences
// across periodic neighbours (weight dz), z differences between centres (weight dz) and the
// wall half cells against the wall values (weight dz/2). f: [T, Z, X] → [T].
torch::Tensor squared_gradient(const torch::Tensor& f, double dx, double dz, double bottom,
                               double top) {
  const torch::Tensor fx = (f - f.roll(1, 2)) / dx;
  const torch::Tensor fz = f.diff(1, 1) / dz;
  const torch::Tensor wall_bottom = (f.select(1, 0) - bottom) * (2 / dz);
  const torch::Tensor wall_top = (top - f.select(1, f.size(1) - 1)) * (2 / dz);
  return (fx.square().sum(1) * dz + fz.square().sum(1) * dz +
          (wall_bottom.square() + wall_top.square()) * (0.5 * dz))
      .mean(1);
}

// One-sided spectrum of each row along x, averaged over z and weighted over t: [X/2 + 1].
torch::Tensor horizontal_spectrum(const torch::Tensor& f, const torch::Tensor& w) {
  const long nx = f.size(2);
  torch::Tensor power = torch::fft::rfft(f, c10::nullopt, 2).abs().square() / double(nx * nx);
  torch::Tensor factor = torch::full({power.size(2)}, 2.0, torch::kFloat64);
  factor[0] = 1;
  if (nx % 2 == 0) factor[-1] = 1;
  power = power * factor;
  return (power.mean(1) * w.unsqueeze(1)).sum(0);  // mean over z, weighted over t
}

std::vector<double> to_vector(const torch::Tensor& t) {
  const torch::Tensor c = t.contiguous().to(torch::kFloat64);
  return {c.data_ptr<double>(), c.data_ptr<double>() + c.numel()};
}

}  // namespace

std::vector<double> window_weights(const std::vector<double>& times, double from) {
  const std::size_t n = times.size();
  std::size_t first = 0;
  while (first < n && times[first] < from * (1 - 1e-12)) ++first;
  if (n - first < 2) first = 0;
  std::vector<double> w(n, 0.0);
  for (std::size_t i = first; i + 1 < n; ++i) {
    const double half = 0.5 * (times[i + 1] - times[i]);
    w[i] += half;
    w[i + 1] += half;
  }
  const double total = std::accumulate(w.begin(), w.end(), 0.0);
  if (total > 0)
    for (double& v : w) v /= total;
  else
    w.assign(n, 1.0 / double(n));
  return w;
}

RbFlowStatistics rb_flow_statistics(const torch::Tensor& fields, const std::vector<double>& weights,
                                    double lx, double rayleigh, double prandtl) {
  const torch::Tensor fd = fields.to(torch::kFloat64);
  const torch::Tensor b = fd[1], u = fd[2], w = fd[3];
  const long nz = b.size(1), nx = b.size(2);
  const double dx = lx / double(nx), dz = 1.0 / double(nz);
  const torch::Tensor tw =
      torch::tensor(std::vector<double>(weights.begin(), weights.end()), torch::kFloat64);
  const auto average = [&](const torch::Tensor& per_frame) {
    return (per_frame * tw).sum().item<double>();
  };
  RbFlowStatistics s;
  auto& f = s.figures;
  f["nu_bottom"] = average(((0.5 - b.select(1, 0)) * (2 / dz)).mean(1));
  f["nu_top"] = average(((b.select(1, nz - 1) + 0.5) * (2 / dz)).mean(1));
  f["nu_wall"] = 0.5 * (f["nu_bottom"] + f["nu_top"]);
  f["nu_volume"] = 1 + std::sqrt(rayleigh * prandtl) * average((w * b).mean({1, 2}));
  const double grad_b = average(squared_gradient(b, dx, dz, 0.5, -0.5));
  const double grad_u =
      average(squared_gradient(u, dx, dz, 0, 0) + squared_gradient(w, dx, dz, 0, 0));
  f["nu_thermal"] = grad_b;
  f["nu_kinetic"] = 1 + prandtl * grad_u;
  f["thermal_dissipation"] = grad_b / std::sqrt(rayleigh * prandtl);
  f["viscous_dissipation"] = std::sqrt(prandtl / rayleigh) * grad_u;
  f["kinetic_energy"] = 0.5 * average((u.square() + w.square()).mean({1, 2}));
  s.profile = to_vector((b.mean(2) * tw.unsqueeze(1)).sum(0));
  s.kinetic_spectrum = to_vector(0.5 * (horizontal_spectrum(u, tw) + horizontal_spectrum(w, tw)));
  s.buoyancy_spectrum = to_vector(0.5 * horizontal_spectrum(b - b.mean(2, true), tw));
  return s;
}

double spectrum_share_above(const std::vector<double>& spectrum, long cutoff) {
  double total = 0, above = 0;
  for (std::size_t k = 0; k < spectrum.size(); ++k) {
    total += spectrum[k];
    if (long(k) > cutoff) above += spectrum[k];
  }
  return total > 0 ? above / total : 0.0;
}

}  // namespace surrox::couplers
