#pragma once
// The three-body embedding descriptor se_e3 (DeePMD-kit's `se_e3`, alias `se_at`/`se_t`:
// deepmd/dpmodel/descriptor/se_t.py), used beside se_e2_a as DeePMD-kit's `hybrid` descriptor
// does: the two descriptors are concatenated before the fitting net.
//
// Why: se_e2_a sees angles only through Σ_j G(s_j) s_j (1, r̂_j), angular moments of order
// l ≤ 1, so it cannot tell a tetrahedral centre from a square-planar one (tested), while
// Stillinger–Weber's three-body term λ(cos θ_jk + 1/3)² needs l = 2. se_e3 embeds the angle
// itself: with R̃_j the normalised environment row of neighbour j (its own cutoff),
//   x_jk = R̃_j,1..3 · R̃_k,1..3  (∝ s_j s_k cos θ_jk),
//   D3   = Σ_{j,k} x_jk · G3(x_jk) / (sel_j sel_k),
// summed over every ordered pair of neighbour types (t_j ≤ t_k, one net per type pair), j = k
// included, as DeePMD-kit's se_t does. G3 is nonlinear in cos θ, so cos² θ is in reach.
//
// The three-body slots are the nearest `sel[t]` of se_e2_a's slots of each type (those are
// sorted nearest first), so no second neighbour list is built: rcut must not exceed se_e2_a's
// and sel[t] must not exceed its sel[t]; more neighbours within this rcut than sel: a warning.
#include <torch/torch.h>

#include <nlohmann/json.hpp>
#include <vector>

namespace surrox::surrogates::deep_potential {

struct SeE3Config {
  double rcut = 4.0, rcut_smth = 3.0;     // Å, the three-body switch
  std::vector<int> sel;                   // slots per neighbour type; empty: no se_e3 part
  std::vector<long> embedding{4, 8, 16};  // embedding net widths (the descriptor's size = last)
  bool enabled() const { return !sel.empty(); }
  long slots() const;
  nlohmann::json to_json() const;
  static SeE3Config from_json(const nlohmann::json& j);
};

// The slot indices (into se_e2_a's slots, laid out per type by `sel`) the three-body part uses:
// the first three_body_sel[t] of each type's block.
torch::Tensor three_body_slot_index(const std::vector<int>& sel,
                                    const std::vector<int>& three_body_sel);

// Per neighbour type, the number of leading three-body slots that holds every slot within the
// three-body rcut of any centre of `raw` (n, slots, 4), its raw (unnormalised) three-body rows.
// (The slots are sorted nearest first, so that is the most any centre has.) The rest of each
// block is empty or beyond rcut: zero rows with zero derivative, whose normalised direction columns
// are 0 (davg3 is 0 there), so every pair x_jk they are in is 0 and adds x·G3(x) = 0 to D3 and
// nothing to the forces.
std::vector<int> three_body_slots_in_use(const torch::Tensor& raw, const std::vector<int>& sel);

// The descriptor D3 (n, M) of n centres from their normalised three-body environment rows
// r (n, slots, 4); `embed(tj, tk, x)` applies the net of neighbour types (tj ≤ tk) to x (…, 1).
// Only the first used[t] slots of each type's block are paired (three_body_slots_in_use; the
// other pairs add exactly 0); the normalisation stays 1/(sel_j sel_k).
template <class Embed>
torch::Tensor three_body_descriptor(const torch::Tensor& r, const std::vector<int>& sel,
                                    const std::vector<int>& used, Embed&& embed) {
  const int nt = static_cast<int>(sel.size());
  const long n = r.size(0);
  std::vector<long> offset(nt + 1, 0);
  for (int t = 0; t < nt; ++t) offset[t + 1] = offset[t] + sel[t];
  torch::Tensor d;
  for (int tj = 0; tj < nt; ++tj)
    for (int tk = tj; tk < nt; ++tk) {
      const torch::Tensor rj = r.narrow(1, offset[tj], used[tj]).narrow(2, 1, 3);
      const torch::Tensor rk = r.narrow(1, offset[tk], used[tk]).narrow(2, 1, 3);
      const torch::Tensor x = torch::matmul(rj, rk.transpose(1, 2));  // (n, sel_j, sel_k)
      const torch::Tensor g = embed(tj, tk, x.reshape({-1, 1}));      // (n·sel_j·sel_k, M)
      const torch::Tensor part =
          torch::matmul(x.reshape({n, 1, -1}), g.view({n, x.size(1) * x.size(2), -1})).squeeze(1) /
          static_cast<double>(sel[tj] * sel[tk]);
      d = d.defined() ? d + part : part;
    }
  return d;
}

}  // namespace surrox::surrogates::deep_potential
