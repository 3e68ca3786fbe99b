#pragma once
// Model compression as DeePMD-kit does it (deepmd/utils/tabulate.py, op tabulate_fusion_se_a):
// each embedding net G(x) (x = R̃₀, the normalised s) is replaced by piecewise fifth-order
// polynomials. Nodes run from `lower` (x at s = 0: empty slots and r ≥ rcut) to `upper` (x at
// s = 1/r_min, r_min the smallest neighbour distance of the data) with step `stride`, then on
// to `extrapolate`·upper with step 10·stride. On each interval the quintic matches G, G' and G''
// at both ends, so value, slope and curvature are continuous. Beyond the last node the value
// is held (slope 0), as DeePMD-kit does, and a warning counts the neighbours out there.
// Evaluation returns G and feeds autograd the polynomial's analytic derivative dG/dx.
#include <torch/torch.h>

#include <atomic>
#include <memory>
#include <nlohmann/json.hpp>

namespace surrox::surrogates::deep_potential {

struct TableParams {
  double lower = 0, upper = 0;  // normalised x range of the data (see above)
  double stride = 0.01;         // DeePMD-kit table_stride_1; the coarse part uses 10×
  double extrapolate = 5;       // the table ends at extrapolate·upper
  nlohmann::json to_json() const;
  static TableParams from_json(const nlohmann::json& j);
  double end() const { return extrapolate * upper; }
  long fine_intervals() const;
  long intervals() const;
  double node(long k) const;  // left end of interval k (k = intervals(): the last node)
};

// Coefficients (intervals, 6, M1) of G on the table, from the net's value and first and second
// derivatives at the nodes (autograd). `net` maps (K, 1) → (K, M1).
torch::Tensor tabulate_embedding(const std::function<torch::Tensor(const torch::Tensor&)>& net,
                                 const TableParams& params);

// Counts points beyond the table's end over the life of a model (shared by its copies).
struct TableOverflow {
  std::atomic<long> points{0};
  std::atomic<bool> warned{false};
};

// G (…, M1) of x (…, 1), float64, differentiable in x (first order: forces, not training).
torch::Tensor evaluate_table(const torch::Tensor& x, const torch::Tensor& coefficients,
                             const TableParams& params, TableOverflow& overflow);

// DeePMD-kit's tabulate_fusion_se_a: Σ_j R̃_jᵀ G(R̃_j0) (n, 4, M1) of R̃ (n, slots, 4) without
// forming G; the backward pass recomputes G and G' per neighbour (first order only).
torch::Tensor fused_table_product(const torch::Tensor& r, const torch::Tensor& coefficients,
                                  const TableParams& params, TableOverflow& overflow);

}  // namespace surrox::surrogates::deep_potential
