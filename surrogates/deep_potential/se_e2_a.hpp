#pragma once
// The se_e2_a deep potential ("Deep Potential – Smooth Edition", Zhang et al., NeurIPS 2018;
// DeePMD-kit deepmd/dpmodel/descriptor/se_e2_a.py and deepmd/dpmodel/utils/env_mat.py):
//   s(r)   = w(r)/r, w = 1 below rcut_smth, u³(−6u² + 15u − 10) + 1 up to rcut, 0 beyond;
//   R_ij   = s(r_ij)·(1, x/r, y/r, z/r), normalised per centre type: R̃ = (R − davg)/dstd
//            (empty slots are zero rows before normalisation, as an atom at rcut);
//   G_ij   = embedding net of the centre and neighbour types applied to R̃_ij,0 (resnet rule:
//            y = tanh(Wx + b) + x for equal widths, + [x, x] for doubled ones);
//   D_i    = (Gᵀ R̃)(R̃ᵀ G<) / slots², G< the first axis_neuron columns;
//   E      = Σ_i [fitting net of type(i)](D_i) + bias[type(i)].
// With `three_body` set, D_i is [D_i, D3_i], D3 the se_e3 descriptor (se_e3.hpp), as
// DeePMD-kit's `hybrid` of se_e2_a and se_e3. With `radial_embedding` set, D_i also carries
// DeePMD-kit's se_e2_r on the same environment: Dr_i = Σ_j Gr(R̃_ij,0) / slots / 5
// (deepmd/dpmodel/descriptor/se_r.py, res_rescale 1/5), a neighbour sum the fitting net sees
// linearly; se_e2_a's D holds only products of such sums, so a pair energy Σ_j φ(r_ij) has to
// be approximated by the fitting net there.
// Forces and virial come from autograd on the relative vectors r_ij (predict()), in float64.
// precision float32 (DeePMD-kit's `precision` of its descriptor and fitting net): the embedding
// and fitting nets hold float32 weights and run in float32 from the normalised environment
// matrix on; the environment, its statistics, the energy bias, the sums over atoms, forces and
// virial stay float64, and compression tabulates the nets in float64 from their exact weights.
#include <torch/torch.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "surrogates/deep_potential/environment.hpp"
#include "surrogates/deep_potential/se_e3.hpp"
#include "surrogates/deep_potential/tabulate.hpp"

namespace surrox::surrogates::deep_potential {

struct SeE2aConfig {
  std::vector<std::string> type_map{"Si"};
  double rcut = 4.5, rcut_smth = 3.5;       // Å
  std::vector<int> sel{32};                 // slots per neighbour type
  std::vector<long> embedding{16, 32, 64};  // embedding net widths (M1 = last)
  long axis_neuron = 8;                     // M2
  std::vector<long> fitting{64, 64, 64};    // fitting net hidden widths
  bool resnet_dt = true;                    // fitting net: per-neuron timestep on resnets
  long seed = 1;  // weight initialisation (a generator of the model's own, not torch's global one)
  // 1: DeePMD-kit's se_e2_a (angular moments l ≤ 1). 2: R's rows also carry s times the
  // traceless r̂ ⊗ r̂ (l = 2, six columns) and D gains the block of those columns, so
  // (cos θ_jk)² is seen with radial embeddings, as Stillinger–Weber's three-body term needs.
  long angular_order = 1;
  long environment_columns() const { return angular_order == 2 ? 10 : 4; }
  SeE3Config three_body;  // the se_e3 part; off unless three_body.sel is set
  // The se_e2_r part's embedding widths (its descriptor size = last); empty: off.
  std::vector<long> radial_embedding;
  std::string precision = "float64";  // the nets' weights and arithmetic: float64 | float32
  bool radial() const { return !radial_embedding.empty(); }
  torch::Dtype network_dtype() const;
  int ntypes() const { return static_cast<int>(type_map.size()); }
  long slots() const;
  nlohmann::json to_json() const;
  static SeE2aConfig from_json(const nlohmann::json& j);
};

// One dense layer of DeePMD-kit's networks (dpmodel/utils/network.py NativeLayer).
class DpLayerImpl : public torch::nn::Module {
 public:
  // Initial weights are drawn from `generator` (the model's own, seeded from its config).
  DpLayerImpl(long in, long out, bool activation, bool resnet, bool timestep,
              at::Generator& generator);
  torch::Tensor forward(const torch::Tensor& x);

 private:
  torch::Tensor w_, b_, idt_;
  bool activation_, resnet_;
};
TORCH_MODULE(DpLayer);

// Frames of one system batched as one set of A = frames × atoms centres.
struct EnvBatch {
  torch::Tensor rij;                   // (A, slots, 3) float64, zero in empty slots
  torch::Tensor neighbor;              // (A, slots) int64: row of j in the batch, −1 for empty
  std::vector<torch::Tensor> of_type;  // per type: int64 rows of the centres of that type
  // Optional (training on fixed frames): the raw environment matrix R (A, slots, C) and its
  // derivative ∂R/∂r_ij (A, slots, C, 3), computed once (C = SeE2aConfig::environment_columns).
  // predict() then differentiates the energy with respect to R and chains with ∂R/∂r_ij, so that
  // neither R nor its derivative is rebuilt, and the force loss's double backward skips the switch
  // function's graph.
  torch::Tensor env, env_deriv;
  // The same for the three-body part (its slots and switch): (A, slots3, 4), (A, slots3, 4, 3).
  torch::Tensor env3, env3_deriv;
  long frames = 0, atoms = 0;
};
EnvBatch make_batch(const std::vector<FrameEnvironment>& frames, const std::vector<int>& types,
                    int ntypes);

// The raw environment matrix (…, slots, 4) of relative vectors (…, slots, 3): rows
// s(r)·(1, x/r, y/r, z/r), zero rows in empty slots (r_ij = 0).
// With angular_order 2, six more columns: s times the traceless r̂ ⊗ r̂ (see SeE2aConfig).
torch::Tensor environment_matrix(const torch::Tensor& rij, double rcut_smth, double rcut,
                                 long angular_order = 1);
// Fills batch.env and batch.env_deriv from batch.rij (the derivative by autograd, one backward
// pass per column of R, so it is the derivative of exactly the function above).
void precompute_environment(EnvBatch& batch, double rcut_smth, double rcut);
// The same for a model's config: also env3 and env3_deriv where it has a three-body part.
void precompute_environment(EnvBatch& batch, const SeE2aConfig& config);
// The raw environment matrix and its derivative (by autograd, as above) of relative vectors.
std::pair<torch::Tensor, torch::Tensor> environment_with_derivative(const torch::Tensor& rij,
                                                                    double rcut_smth, double rcut,
                                                                    long angular_order = 1);

class SeE2aModelImpl : public torch::nn::Module {
 public:
  explicit SeE2aModelImpl(SeE2aConfig config);
  const SeE2aConfig& config() const { return config_; }
  // Raw environment matrix (A, slots, C) of relative vectors (A, slots, 3).
  torch::Tensor environment_matrix(const torch::Tensor& rij) const;
  // The three-body part's raw environment matrix (A, slots3, 4) of the same relative vectors.
  torch::Tensor three_body_environment(const torch::Tensor& rij) const;
  // Atomic energies (A) of the batch's centres at relative vectors `rij`.
  torch::Tensor atomic_energy(const torch::Tensor& rij, const EnvBatch& batch);
  // The same from the raw environment matrices (A, slots, C) and, with a three-body part,
  // (A, slots3, 4) (else undefined).
  torch::Tensor atomic_energy_of_env(const torch::Tensor& env, const torch::Tensor& env3,
                                     const EnvBatch& batch);
  // The slots of the three-body part among the se_e2_a slots (three_body_slot_index).
  const torch::Tensor& three_body_slots() const { return three_body_slots_; }
  // DeePMD-kit's statistics of the raw environment matrix over the batches' centres, per
  // centre type: davg = (⟨R₀⟩, 0, 0, 0), dstd = (σ(R₀), σ(R₁..₃)×3), σ ≥ 1e-2
  // (deepmd/dpmodel/utils/env_mat_stat.py EnvMatStatSe; empty slots count as zero rows).
  // The three-body part's davg3/dstd3 likewise from its own environment matrix.
  void compute_statistics(const std::vector<EnvBatch>& batches);
  // Per-type energy bias: least squares of frame energies on the per-type atom counts.
  void fit_energy_bias(const std::vector<std::vector<long>>& type_counts,
                       const std::vector<double>& energies);
  torch::Tensor davg, dstd, bias;  // (T, 4), (T, 4), (T)
  torch::Tensor davg3, dstd3;      // (T, 4) each, with a three-body part

  // Model compression (tabulate.hpp): tabulates every embedding net over `params` (buffers
  // "table_<ti>_<tj>", saved with the model); atomic_energy then evaluates the tables instead
  // of the nets. Inference only: the tables have no second derivative for force training.
  // tabulate = false: zero tables of the right shape (load_model fills them from the file).
  void compress(const TableParams& params, bool tabulate = true);
  bool compressed() const { return tables_.size() > 0; }
  const TableParams& table_params() const { return table_params_; }
  // Neighbours seen beyond the table's end since the model was compressed or loaded.
  long table_overflow() const { return overflow_->points; }
  // The normalised-s range of the tables for a smallest neighbour distance r_min (Å): lower =
  // x at s = 0, upper = x at s(r_min), the extremes over centre types (as DeePMD-kit).
  TableParams table_range(double r_min, double stride, double extrapolate) const;
  // The three-body part's compression (DeePMD-kit compresses se_e3 too): its nets tabulated
  // over x = R̃_j·R̃_k in [−X, X], X = max over centre types of (s3(r_min)/dstd3)², the bound
  // |x| ≤ s_j s_k / σ² gives (buffers "three_body_table_<tj>_<tk>"). tabulate as compress().
  void compress_three_body(const TableParams& params, bool tabulate = true);
  bool three_body_compressed() const { return three_body_tables_.size() > 0; }
  const TableParams& three_body_table_params() const { return three_body_table_params_; }
  TableParams three_body_table_range(double r_min, double stride, double extrapolate) const;
  // G (…, M1) of the embedding net [centre type][neighbour type] at normalised s (…, 1).
  torch::Tensor embed(int ti, int tj, const torch::Tensor& x);
  // G3 (…, M) of the three-body net of neighbour types tj ≤ tk at x (…, 1) (its table when
  // compressed).
  torch::Tensor embed_three_body(int tj, int tk, const torch::Tensor& x);
  // Gr (…, Mr) of the se_e2_r net [centre type][neighbour type] at normalised s (…, 1); its
  // table when compressed (compress() tabulates it over the same range as G).
  torch::Tensor embed_radial(int ti, int tj, const torch::Tensor& x);

 private:
  // Every embedding and fitting net (the nets whose precision the config sets).
  void for_each_net(const std::function<void(torch::nn::Sequential&)>& visit);
  SeE2aConfig config_;
  std::vector<int> offset_;
  std::vector<torch::nn::Sequential> embedding_;  // T × T, [centre type][neighbour type]
  std::vector<torch::nn::Sequential> fitting_;    // T
  std::vector<torch::nn::Sequential> three_body_embedding_;  // T × T, used for tj ≤ tk
  std::vector<torch::nn::Sequential> radial_embedding_;      // T × T, with a se_e2_r part
  torch::Tensor three_body_slots_;
  TableParams table_params_;
  std::vector<torch::Tensor> tables_;  // T × T coefficients (intervals, 6, M1) when compressed
  std::vector<torch::Tensor> radial_tables_;  // T × T (intervals, 6, Mr), compressed se_e2_r
  TableParams three_body_table_params_;
  std::vector<torch::Tensor> three_body_tables_;  // T × T (used for tj ≤ tk) when compressed
  std::shared_ptr<TableOverflow> overflow_ = std::make_shared<TableOverflow>();
};
TORCH_MODULE(SeE2aModel);

struct Prediction {
  torch::Tensor energy;  // (F) eV
  torch::Tensor force;   // (F, atoms, 3) eV/Å, −∂E/∂x
  torch::Tensor virial;  // (F, 9) eV, −Σ r_ij ⊗ ∂E/∂r_ij = Σ r ⊗ f (LAMMPS's sign)
};
// create_graph: keep the graph of the forces (training on forces). Uses batch.env and
// batch.env_deriv where they are set (precompute_environment), else builds R from batch.rij.
Prediction predict(SeE2aModel& model, const EnvBatch& batch, bool create_graph = false);

}  // namespace surrox::surrogates::deep_potential
