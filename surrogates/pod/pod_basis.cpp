#include "surrogates/pod/pod_basis.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace surrox::surrogates::pod {

torch::Tensor PodBasis::project(const torch::Tensor& snapshots) const {
  return torch::matmul(snapshots.to(torch::kFloat64) - mean, modes);
}

torch::Tensor PodBasis::reconstruct(const torch::Tensor& coefficients) const {
  return mean + torch::matmul(coefficients.to(torch::kFloat64), modes.t());
}

PodBasis compute_pod(const torch::Tensor& snapshots, long modes) {
  if (snapshots.dim() != 2 || snapshots.size(0) < 2 || snapshots.size(1) < 1)
    throw Error("compute_pod needs a [T, n] snapshot matrix with T ≥ 2");
  const torch::Tensor x = snapshots.to(torch::kFloat64);
  const long t = x.size(0), n = x.size(1);
  PodBasis b;
  b.mean = x.mean(0);
  const torch::Tensor centred = x - b.mean;
  long kept = std::max(1L, std::min({modes, t - 1, n}));
  // Directions with no variance (to round-off) are not modes: a snapshot set spanning k
  // directions gives at most k.
  const auto significant = [&](const torch::Tensor& s2) {
    const double largest = s2[0].item<double>();
    return std::max(1L, (s2 > 1e-12 * largest).sum().item<long>());
  };
  torch::Tensor lambda, phi;  // all eigenvalues (decreasing), the kept modes [n, kept]
  if (t < n) {
    // Method of snapshots: C = X Xᵀ = V Σ² Vᵀ, modes Xᵀ V / σ.
    const auto [values, vectors] = torch::linalg::eigh(torch::matmul(centred, centred.t()), "L");
    const torch::Tensor s2 = values.flip(0).clamp_min(0);
    kept = std::min(kept, significant(s2));
    const torch::Tensor v = vectors.flip(1).slice(1, 0, kept);
    phi = torch::matmul(centred.t(), v) / s2.slice(0, 0, kept).sqrt().clamp_min(1e-300);
    lambda = s2;
  } else {
    const auto [u, s, vh] = torch::linalg::svd(centred, /*full_matrices=*/false, c10::nullopt);
    lambda = s * s;
    kept = std::min(kept, significant(lambda));
    phi = vh.slice(0, 0, kept).t();
  }
  lambda = lambda / double(t - 1);
  // A sign per mode: its entry of largest magnitude positive, so a basis is reproducible.
  const torch::Tensor pivot = phi.abs().argmax(0);
  const torch::Tensor signs = phi.gather(0, pivot.unsqueeze(0)).sign();
  b.modes = (phi * torch::where(signs == 0, torch::ones_like(signs), signs)).contiguous();
  b.energy = lambda.slice(0, 0, kept).clone();
  b.total_energy = lambda.sum().item<double>();
  if (!(b.total_energy > 0))
    throw InputError("the snapshots do not vary: there is nothing to decompose");
  return b;
}

}  // namespace surrox::surrogates::pod
