#pragma once
// Proper orthogonal decomposition of a snapshot matrix: the mean snapshot, the first N modes
// (orthonormal in the plain Euclidean inner product, which is the area-weighted one up to a
// constant on a uniform grid) and the energy (variance) each mode captures. Computed by the
// method of snapshots (eigenvectors of the T × T Gram matrix) when there are fewer snapshots
// than points, by a thin SVD of the snapshot matrix otherwise; float64 throughout.
#include <torch/torch.h>

namespace surrox::surrogates::pod {

struct PodBasis {
  torch::Tensor mean;       // [n]: the mean snapshot
  torch::Tensor modes;      // [n, N]: orthonormal columns, each with its largest entry positive
  torch::Tensor energy;     // [N]: eigenvalues λ_i = σ_i²/(T − 1), decreasing
  double total_energy = 0;  // Σ of every eigenvalue (the snapshots' total variance)

  long size() const { return modes.defined() ? modes.size(1) : 0; }
  long points() const { return mean.defined() ? mean.size(0) : 0; }
  // λ_i / Σλ per kept mode, and their sum (the captured energy fraction).
  torch::Tensor energy_fractions() const { return energy / total_energy; }
  double captured_energy() const { return energy.sum().item<double>() / total_energy; }

  // snapshots [T, n] → coefficients [T, N] = (x − mean) · modes.
  torch::Tensor project(const torch::Tensor& snapshots) const;
  // coefficients [..., N] → snapshots [..., n] = mean + coefficients · modesᵀ.
  torch::Tensor reconstruct(const torch::Tensor& coefficients) const;
};

// The POD of `snapshots` [T, n] (T ≥ 2) keeping min(modes, T − 1, n) modes, fewer when the
// snapshots vary in fewer directions (eigenvalues below 1e-12 of the largest are dropped).
PodBasis compute_pod(const torch::Tensor& snapshots, long modes);

}  // namespace surrox::surrogates::pod
