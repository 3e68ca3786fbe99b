#include "couplers/deep_potential/deep_potential_pair.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "core/case_path.hpp"
#include "core/error.hpp"
#include "io/hdf5_checkpoint.hpp"
#include "solvers/md/potential.hpp"
#include "surrogates/deep_potential/local_evaluation.hpp"
#include "surrogates/deep_potential/model_deviation.hpp"
#include "surrogates/deep_potential/model_file.hpp"

namespace surrox::couplers {
namespace {

namespace dp = surrogates::deep_potential;
namespace md = solvers::md;
using dp::ModelDeviRow;

// One model with the map from the system's atom types onto its type_map.
struct PairModel {
  dp::SeE2aModel model{nullptr};
  std::vector<int> model_type;  // LAMMPS type − 1 → model type
  bool warned = false;
};

// The engine's atoms and neighbour list as the shared evaluation takes them (host copies).
dp::LocalEvaluation evaluate_pair_model(PairModel& m, const md::System& s,
                                        const md::NeighborList& list) {
  const long n = s.nlocal, nall = s.nall;
  auto xh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.x);
  auto type = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.type);
  std::vector<double> x(3 * nall);
  std::vector<int> types(nall);
  for (long i = 0; i < nall; ++i) {
    for (int d = 0; d < 3; ++d) x[3 * i + d] = xh(i, d);
    types[i] = m.model_type[type(i) - 1];
  }
  const md::NeighborView view = list.view();
  std::vector<long> first(n + 1, 0), neighbors;
  for (long i = 0; i < n; ++i) {
    for (int k = 0; k < view.count(i); ++k) neighbors.push_back(view(i, k));
    first[i + 1] = static_cast<long>(neighbors.size());
  }
  const dp::LocalAtoms atoms{n, nall, x.data(), types.data(), first.data(), neighbors.data()};
  dp::LocalEvaluation e = dp::evaluate_local(m.model, atoms);
  dp::warn_once_if_sel_overflows(e, m.model->config(), "pair deep", m.warned);
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
    relative_level_ = c.real("relative");
    if (relative_level_ > 0 && paths.size() < 2)
      c.fail("relative", "the relative model deviation needs `models` (two or more)");
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
    if (rank == 0) dp::write_model_devi(output_dir, devi_rows_);
    double largest = 0;
    for (const auto& r : devi_rows_) largest = std::max(largest, r.max_devi_f);
    results["model_devi"] = {{"models", models_.size()},   {"out_freq", out_freq_},
                             {"rows", devi_rows_.size()},  {"largest_max_devi_f", largest},
                             {"file", "model_devi.out"},   {"csv", "model_devi.csv"},
                             {"relative", relative_level_}};
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
                        const dp::LocalEvaluation& first);

  std::vector<PairModel> models_;  // models_[0] drives the dynamics
  std::vector<std::string> elements_;
  double cutoff_ = 0;
  long out_freq_ = 100, last_devi_step_ = -1;
  double relative_level_ = 0;  // > 0: DeePMD-kit's relative force deviation with this level
  std::vector<ModelDeviRow> devi_rows_;  // rank 0
};

void DeepPotentialPair::compute(md::System& s, const md::NeighborList& list,
                                md::ForceTally& tally) {
  const long n = s.nlocal, nall = s.nall;
  const dp::LocalEvaluation e = evaluate_pair_model(models_[0], s, list);
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
    const torch::Tensor w = dp::slot_virials(e);
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
                                         long step, const dp::LocalEvaluation& first) {
  const long n = s.nlocal, nall = s.nall;
  const long models = static_cast<long>(models_.size());
  // Every model's forces side by side, ghost rows folded into their owners (collective), and
  // its virial −Σ r_ij ⊗ ∂E/∂r_ij over this rank's centres.
  Kokkos::View<double**, Kokkos::LayoutRight> forces("pair_deep::devi_forces", nall, 3 * models);
  auto fh = Kokkos::create_mirror_view(forces);
  std::vector<double> virial(9 * models, 0.0);
  for (long k = 0; k < models; ++k) {
    const dp::LocalEvaluation other = k == 0 ? first : evaluate_pair_model(models_[k], s, list);
    const auto fa = other.force.accessor<double, 2>();
    for (long i = 0; i < nall; ++i)
      for (int d = 0; d < 3; ++d) fh(i, 3 * k + d) = fa[i][d];
    const torch::Tensor w = dp::slot_virials(other).sum(0);
    const auto wa = w.accessor<double, 1>();
    for (int q = 0; q < 9; ++q) virial[9 * k + q] = wa[q];
  }
  Kokkos::deep_copy(forces, fh);
  list.reverse(forces);
  Kokkos::deep_copy(fh, forces);
  const ModelDeviRow row = dp::reduce_model_devi(step, fh.data(), n, models, std::move(virial),
                                                 list.comm(), relative_level_);
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
      .real("relative",
            "DeePMD-kit's `relative V` (eV/Å): the force deviation of each atom divided by "
            "‖⟨F_i⟩‖ + V, as pair_style deepmd writes it with `relative`; 0: absolute deviations")
      .at_least(0)
      .fallback("0");
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
