#include "couplers/deep_potential_pair.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>

#include "core/case_path.hpp"
#include "core/error.hpp"
#include "couplers/deep_potential_pair_devi.hpp"
#include "io/hdf5_checkpoint.hpp"
#include "solvers/md/potential.hpp"
#include "surrogates/deep_potential/environment.hpp"
#include "surrogates/deep_potential/model_file.hpp"

namespace surrox::couplers {
namespace {

namespace dp = surrogates::deep_potential;
namespace md = solvers::md;

// One model with the map from the system's atom types onto its type_map.
struct PairModel {
  dp::SeE2aModel model{nullptr};
  std::vector<int> model_type;  // LAMMPS type − 1 → model type
  bool warned = false;
};

// One model's evaluation on this rank's owned atoms: atomic energies (owned), the gradient
// with respect to each slot's r_ij, the slots' neighbour indices (owned or ghost, −1: empty).
struct PairEvaluation {
  torch::Tensor atomic, gm, rij, j;  // (n), (n·slots, 3) masked, (n, slots, 3), (n·slots)
  torch::Tensor force;               // (nall, 3): −∂E/∂x on owned and ghost rows
};

PairEvaluation evaluate_pair_model(PairModel& m, const md::System& s,
                                   const md::NeighborList& list) {
  const auto& c = m.model->config();
  const long n = s.nlocal, nall = s.nall, slots = c.slots();
  const int nt = c.ntypes();
  std::vector<int> offset(nt + 1, 0);
  for (int t = 0; t < nt; ++t) offset[t + 1] = offset[t] + c.sel[t];
  auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.x);
  auto type = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.type);
  const md::NeighborView view = list.view();
  dp::EnvBatch batch;
  batch.frames = 1;
  batch.atoms = n;
  batch.rij = torch::zeros({n, slots, 3}, torch::kFloat64);
  batch.neighbor = torch::full({n, slots}, -1L, torch::kInt64);
  double* rij = batch.rij.data_ptr<double>();
  long* nb = batch.neighbor.data_ptr<long>();
  std::vector<std::vector<long>> of_type(nt);
  std::vector<int> most(nt, 0), most3(nt, 0);  // within rcut; within the three-body rcut
  const double rc3_2 = c.three_body.rcut * c.three_body.rcut;
  struct Candidate {
    double r2;
    long j;
  };
  std::vector<std::vector<Candidate>> found(nt);
  const double rc2 = c.rcut * c.rcut;
  for (long i = 0; i < n; ++i) {
    of_type[m.model_type[type(i) - 1]].push_back(i);
    for (auto& f : found) f.clear();
    for (int k = 0; k < view.count(i); ++k) {
      const long j = view(i, k);
      double r2 = 0;
      for (int d = 0; d < 3; ++d) r2 += (x(j, d) - x(i, d)) * (x(j, d) - x(i, d));
      if (r2 < rc2) found[m.model_type[type(j) - 1]].push_back({r2, j});
    }
    for (int t = 0; t < nt; ++t) {
      auto& f = found[t];
      most[t] = std::max(most[t], static_cast<int>(f.size()));
      if (c.three_body.enabled())
        most3[t] = std::max(
            most3[t], static_cast<int>(std::count_if(
                          f.begin(), f.end(), [&](const Candidate& a) { return a.r2 < rc3_2; })));
      std::sort(f.begin(), f.end(), [](const Candidate& a, const Candidate& b) {
        return a.r2 < b.r2 || (a.r2 == b.r2 && a.j < b.j);
      });
      const long keep = std::min<long>(static_cast<long>(f.size()), c.sel[t]);
      for (long k = 0; k < keep; ++k) {
        const long slot = i * slots + offset[t] + k;
        nb[slot] = f[k].j;
        for (int d = 0; d < 3; ++d) rij[3 * slot + d] = x(f[k].j, d) - x(i, d);
      }
    }
  }
  if (!m.warned) {
    m.warned = dp::warn_if_sel_overflows(most, c.sel, c.type_map, "pair deep");
    if (c.three_body.enabled())
      m.warned = dp::warn_if_sel_overflows(most3, c.three_body.sel, c.type_map,
                                           "pair deep (three_body: its rcut and sel)") ||
                 m.warned;
  }
  for (int t = 0; t < nt; ++t) batch.of_type.push_back(torch::tensor(of_type[t], torch::kInt64));

  PairEvaluation e;
  torch::Tensor r = batch.rij.detach().requires_grad_(true);
  e.atomic = m.model->atomic_energy(r, batch);
  const torch::Tensor g = torch::autograd::grad({e.atomic.sum()}, {r})[0];
  e.atomic = e.atomic.detach();
  const torch::Tensor filled = batch.neighbor >= 0;
  e.gm = (g * filled.unsqueeze(-1)).reshape({-1, 3});
  const torch::Tensor self = torch::arange(n, torch::kInt64).unsqueeze(1).expand({n, slots});
  e.j = torch::where(filled, batch.neighbor, self).reshape({-1});
  e.rij = batch.rij;
  e.force = torch::zeros({nall, 3}, torch::kFloat64);
  e.force.narrow(0, 0, n).add_(e.gm.view({n, slots, 3}).sum(1));
  e.force.index_add_(0, e.j, -e.gm);
  return e;
}

class DeepPotentialPair final : public md::Potential {
 public:
  DeepPotentialPair(const CaseNode& c, const std::string& units) {
    if (units != "metal") c.fail("type", "a deep potential works in eV and Å: use `units: metal`");
    std::vector<std::string> paths;
    const char* key = "model";
    if (c.has("model") == c.has("models"))
      c.fail("model", "give either `model: PATH` or `models: [PATH, ...]` (model deviation)");
    if (c.has("model")) {
      paths.push_back(c.string("model"));
    } else {
      key = "models";
      for (const auto& p : c.strings("models")) paths.push_back(resolve_case_path(c, p).string());
      if (paths.size() < 2)
        c.fail("models", "name at least two models for the model deviation (one: use `model:`)");
    }
    out_freq_ = c.integer("out_freq");
    for (const auto& path : paths) {
      PairModel m;
      try {
        m.model = dp::load_model(path);
      } catch (const InputError& e) {
        c.fail(key, e.detail());
      }
      m.model->eval();
      const auto& map = m.model->config().type_map;
      const auto elements = c.has("elements") ? c.strings("elements")
                            : models_.empty() ? map
                                              : elements_;
      for (const auto& e : elements) {
        const auto it = std::find(map.begin(), map.end(), e);
        if (it == map.end())
          c.fail(c.has("elements") ? "elements" : key,
                 fmt::format("element {} is not in the type_map of {} ({})", e, path,
                             fmt::join(map, " ")));
        m.model_type.push_back(static_cast<int>(it - map.begin()));
      }
      if (models_.empty()) elements_ = elements;
      cutoff_ = std::max(cutoff_, m.model->config().rcut);
      models_.push_back(std::move(m));
    }
  }
  double cutoff() const override { return cutoff_; }
  bool half_list() const override { return false; }
  void check(const md::System& s) const override {
    if (s.ntypes > static_cast<int>(elements_.size()))
      throw InputError(
          fmt::format("pair deep: the system has {} atom types but `elements` names {}", s.ntypes,
                      elements_.size()));
  }
  void compute(md::System& s, const md::NeighborList& list, md::ForceTally& tally) override;
  void finalize(const std::filesystem::path& output_dir, int rank,
                nlohmann::json& results) override {
    if (models_.size() < 2) return;
    if (rank == 0) write_model_devi(output_dir, devi_rows_);
    double largest = 0;
    for (const auto& r : devi_rows_) largest = std::max(largest, r.max_devi_f);
    results["model_devi"] = {{"models", models_.size()},  {"out_freq", out_freq_},
                             {"rows", devi_rows_.size()}, {"largest_max_devi_f", largest},
                             {"file", "model_devi.out"},  {"csv", "model_devi.csv"}};
  }

  // The model-deviation rows so far and the step of the last (rank 0's rows; the step on every
  // rank), so that model_devi.out covers the whole run.
  void save_state(io::Hdf5Checkpoint& c) const override {
    if (models_.size() < 2) return;
    c.scalars["deep_last_devi_step"] = static_cast<double>(last_devi_step_);
    io::HostArray rows("deep_model_devi", devi_rows_.size(), 7);
    for (std::size_t r = 0; r < devi_rows_.size(); ++r) {
      const ModelDeviRow& d = devi_rows_[r];
      const double values[7] = {static_cast<double>(d.step),
                                d.max_devi_v,
                                d.min_devi_v,
                                d.avg_devi_v,
                                d.max_devi_f,
                                d.min_devi_f,
                                d.avg_devi_f};
      for (int k = 0; k < 7; ++k) rows(r, k) = values[k];
    }
    c.arrays.push_back({"deep_model_devi", rows});
  }
  void load_state(const io::Hdf5Checkpoint& c) override {
    if (models_.size() < 2) return;
    last_devi_step_ = static_cast<long>(c.scalar_or("deep_last_devi_step", -1));
    devi_rows_.clear();
    if (const io::NamedArray* rows = c.find_array("deep_model_devi"))
      for (std::size_t r = 0; r < rows->tuples(); ++r) {
        const auto& v = rows->values;
        devi_rows_.push_back(
            {static_cast<long>(v(r, 0)), v(r, 1), v(r, 2), v(r, 3), v(r, 4), v(r, 5), v(r, 6)});
      }
  }

 private:
  void record_deviation(const md::System& s, const md::NeighborList& list, long step,
                        const PairEvaluation& first);

  std::vector<PairModel> models_;  // models_[0] drives the dynamics
  std::vector<std::string> elements_;
  double cutoff_ = 0;
  long out_freq_ = 100, last_devi_step_ = -1;
  std::vector<ModelDeviRow> devi_rows_;  // rank 0
};

void DeepPotentialPair::compute(md::System& s, const md::NeighborList& list,
                                md::ForceTally& tally) {
  const long n = s.nlocal, nall = s.nall;
  const PairEvaluation e = evaluate_pair_model(models_[0], s, list);
  auto f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.f);
  const auto fa = e.force.accessor<double, 2>();
  for (long i = 0; i < nall; ++i)
    for (int d = 0; d < 3; ++d) f(i, d) += fa[i][d];
  Kokkos::deep_copy(s.f, f);
  if (tally.energy) {
    tally.potential += e.atomic.sum().item<double>();
    tally.virial += md::virial_fdotr(s);
  }
  if (tally.per_atom) {
    // Energy to the centre; each pair's −r_ij ⊗ g_ij to the neighbour (DeePMD's atom virial).
    auto ea = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), tally.eatom);
    auto va = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), tally.vatom);
    const auto w = (-(e.rij.reshape({-1, 3}).unsqueeze(-1) * e.gm.unsqueeze(-2))).reshape({-1, 9});
    const auto wa = w.accessor<double, 2>();
    const auto ja = e.j.accessor<long, 1>();
    const auto ae = e.atomic.accessor<double, 1>();
    for (long i = 0; i < n; ++i) ea(i) += ae[i];
    const int comp[6] = {0, 4, 8, 1, 2, 5};  // xx yy zz xy xz yz
    for (long k = 0; k < w.size(0); ++k)
      for (int q = 0; q < 6; ++q) va(ja[k], q) += wa[k][comp[q]];
    Kokkos::deep_copy(tally.eatom, ea);
    Kokkos::deep_copy(tally.vatom, va);
  }
  // DeePMD's pair_style deepmd: the other models only on output steps, once per step.
  if (models_.size() > 1 && tally.step % out_freq_ == 0 && tally.step != last_devi_step_) {
    last_devi_step_ = tally.step;
    record_deviation(s, list, tally.step, e);
  }
}

void DeepPotentialPair::record_deviation(const md::System& s, const md::NeighborList& list,
                                         long step, const PairEvaluation& first) {
  const long n = s.nlocal, nall = s.nall;
  const long models = static_cast<long>(models_.size());
  // Every model's forces side by side, ghost rows folded into their owners (collective), and
  // its virial −Σ r_ij ⊗ ∂E/∂r_ij over this rank's centres.
  Kokkos::View<double**, Kokkos::LayoutRight> forces("pair_deep::devi_forces", nall, 3 * models);
  auto fh = Kokkos::create_mirror_view(forces);
  std::vector<double> virial(9 * models, 0.0);
  for (long k = 0; k < models; ++k) {
    const PairEvaluation other = k == 0 ? first : evaluate_pair_model(models_[k], s, list);
    const auto fa = other.force.accessor<double, 2>();
    for (long i = 0; i < nall; ++i)
      for (int d = 0; d < 3; ++d) fh(i, 3 * k + d) = fa[i][d];
    const torch::Tensor w =
        -(other.rij.reshape({-1, 3}).unsqueeze(-1) * other.gm.unsqueeze(-2)).sum(0);
    const auto wa = w.accessor<double, 2>();
    for (int p = 0; p < 3; ++p)
      for (int q = 0; q < 3; ++q) virial[9 * k + 3 * p + q] = wa[p][q];
  }
  Kokkos::deep_copy(forces, fh);
  list.reverse(forces);
  Kokkos::deep_copy(fh, forces);
  std::vector<double> per_atom(n);
  for (long i = 0; i < n; ++i) {
    std::vector<double> row(3 * models);
    for (long q = 0; q < 3 * models; ++q) row[q] = fh(i, q);
    per_atom[i] = force_deviation(row, models);
  }
  const MPI_Comm comm = list.comm();
  double local_max = 0, local_min = std::numeric_limits<double>::max(), local_sum = 0;
  for (double v : per_atom) {
    local_max = std::max(local_max, v);
    local_min = std::min(local_min, v);
    local_sum += v;
  }
  long natoms = n;
  double max_f = 0, min_f = 0, sum_f = 0;
  MPI_Allreduce(&local_max, &max_f, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(&local_min, &min_f, 1, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(&local_sum, &sum_f, 1, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &natoms, 1, MPI_LONG, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, virial.data(), static_cast<int>(virial.size()), MPI_DOUBLE, MPI_SUM,
                comm);
  ModelDeviRow row = virial_deviation(step, virial, models, natoms);
  row.max_devi_f = max_f;
  row.min_devi_f = min_f;
  row.avg_devi_f = sum_f / static_cast<double>(natoms);
  devi_rows_.push_back(row);
}

}  // namespace

md::PotentialRegistry::Entry deep_potential_pair_entry() {
  Schema schema(
      "A trained deep potential (family deep_potential, se_e2_a) as the MD force field; with "
      "`models`, DeePMD-kit's model deviation as well.");
  schema
      .input_path("model",
                  "model.pt written by `surrox train` (family deep_potential); give it or `models`")
      .optional();
  schema
      .strings("models",
               "instead of `model`: two or more model.pt files (relative to the case file); the "
               "first drives the dynamics, all of them give the model deviation (model_devi.out "
               "and model_devi.csv, DeePMD-kit's pair_style deepmd columns)")
      .optional();
  schema.integer("out_freq", "steps between model-deviation rows (DeePMD-kit's out_freq)")
      .at_least(1)
      .fallback("100");
  schema
      .strings("elements",
               "element of each atom type (type 1 first); default: the first model's type_map")
      .optional();
  return {[](const CaseNode& c, const std::string& units) {
            return std::make_unique<DeepPotentialPair>(c, units);
          },
          std::move(schema), "a learned se_e2_a deep potential (DeePMD-kit's descriptor)"};
}

}  // namespace surrox::couplers
