// ctest-labels: unit
// ctest-libraries: surrox_pod
// ctest-pch: torch
// POD of a synthetic field built from known orthonormal modes with uncorrelated, zero-mean
// coefficients of known variances: the basis recovers the modes (up to sign), their energy
// fractions and the mean, by both the method of snapshots (T < n) and the thin SVD (T ≥ n).
#include "surrogates/pod/pod_basis.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace pod = surrox::surrogates::pod;

namespace {

struct PodSynthetic {
  torch::Tensor snapshots, modes, mean;  // [T, n], [n, 3], [n]
  std::vector<double> variances = {9.0, 4.0, 1.0};
};

// Three sine modes on n points, coefficients from the columns of a random orthogonal matrix
// (orthogonal to the constant vector, so each has zero mean), scaled to variance λ_i exactly.
PodSynthetic pod_synthetic(long t, long n) {
  torch::manual_seed(3);
  PodSynthetic s;
  const torch::Tensor x = torch::linspace(0, 1, n, torch::kFloat64);
  std::vector<torch::Tensor> cols;
  for (int k = 1; k <= 3; ++k) {
    const torch::Tensor m = torch::sin(k * M_PI * x) + 0.1 * k * torch::cos(2 * k * M_PI * x);
    cols.push_back(m);
  }
  // Orthonormalise the spatial patterns (QR), so the exact modes are known.
  s.modes = std::get<0>(torch::linalg::qr(torch::stack(cols, 1), "reduced"));
  torch::Tensor r = torch::randn({t, 3}, torch::kFloat64);
  r = torch::cat({torch::ones({t, 1}, torch::kFloat64), r}, 1);
  const torch::Tensor q = std::get<0>(torch::linalg::qr(r, "reduced")).slice(1, 1, 4);  // ⟂ 1
  torch::Tensor a = torch::zeros({t, 3}, torch::kFloat64);
  for (int i = 0; i < 3; ++i)
    a.select(1, i).copy_(q.select(1, i) * std::sqrt(s.variances[i] * double(t - 1)));
  s.mean = 2 + torch::cos(M_PI * x);
  s.snapshots = s.mean + torch::matmul(a, s.modes.t());
  return s;
}

}  // namespace

TEST(PodBasis, RecoversModesAndEnergyBySnapshots) {
  const PodSynthetic s = pod_synthetic(40, 200);  // T < n: method of snapshots
  const pod::PodBasis b = pod::compute_pod(s.snapshots, 3);
  ASSERT_EQ(b.size(), 3);
  EXPECT_LT((b.mean - s.mean).abs().max().item<double>(), 1e-12);
  const double total = 14.0;
  for (int i = 0; i < 3; ++i) {
    const double overlap = torch::dot(b.modes.select(1, i), s.modes.select(1, i)).item<double>();
    EXPECT_NEAR(std::abs(overlap), 1.0, 1e-10) << "mode " << i;
    EXPECT_NEAR(b.energy[i].item<double>(), s.variances[i], 1e-9) << "mode " << i;
    EXPECT_NEAR(b.energy_fractions()[i].item<double>(), s.variances[i] / total, 1e-10);
  }
  EXPECT_NEAR(b.captured_energy(), 1.0, 1e-10);
  // Orthonormal columns; projection then reconstruction returns the snapshots.
  EXPECT_LT((torch::matmul(b.modes.t(), b.modes) - torch::eye(3, torch::kFloat64))
                .abs()
                .max()
                .item<double>(),
            1e-10);
  EXPECT_LT((b.reconstruct(b.project(s.snapshots)) - s.snapshots).abs().max().item<double>(), 1e-9);
}

TEST(PodBasis, TruncatesByThinSvd) {
  const PodSynthetic s = pod_synthetic(300, 60);  // T ≥ n: thin SVD
  const pod::PodBasis b = pod::compute_pod(s.snapshots, 2);
  ASSERT_EQ(b.size(), 2);
  EXPECT_NEAR(b.captured_energy(), 13.0 / 14.0, 1e-10);
  EXPECT_NEAR(b.total_energy, 14.0, 1e-9);
  for (int i = 0; i < 2; ++i) {
    const double overlap = torch::dot(b.modes.select(1, i), s.modes.select(1, i)).item<double>();
    EXPECT_NEAR(std::abs(overlap), 1.0, 1e-10) << "mode " << i;
    // The sign convention: each mode's largest entry is positive.
    const torch::Tensor m = b.modes.select(1, i);
    EXPECT_GT(m[m.abs().argmax()].item<double>(), 0);
  }
}

TEST(PodBasis, KeepsOnlyTheDirectionsThatVary) {
  // Three modes of variance: asking for five gives three, by either method, orthonormal.
  for (const auto& [t, n] : {std::pair{40L, 200L}, std::pair{300L, 60L}}) {
    const PodSynthetic s = pod_synthetic(t, n);
    const pod::PodBasis b = pod::compute_pod(s.snapshots, 5);
    ASSERT_EQ(b.size(), 3) << t << " × " << n;
    EXPECT_LT((torch::matmul(b.modes.t(), b.modes) - torch::eye(3, torch::kFloat64))
                  .abs()
                  .max()
                  .item<double>(),
              1e-10);
  }
}

TEST(PodBasis, RefusesConstantSnapshots) {
  EXPECT_THROW(pod::compute_pod(torch::ones({10, 20}, torch::kFloat64), 3), surrox::InputError);
}
