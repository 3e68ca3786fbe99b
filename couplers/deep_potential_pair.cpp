#include "couplers/deep_potential_pair.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "core/error.hpp"
#include "solvers/md/potential.hpp"
#include "surrogates/deep_potential/environment.hpp"
#include "surrogates/deep_potential/model_file.hpp"

namespace surrox::couplers {
namespace {

namespace dp = surrogates::deep_potential;
namespace md = solvers::md;

class DeepPotentialPair final : public md::Potential {
 public:
  DeepPotentialPair(const CaseNode& c, const std::string& units) : model_(nullptr) {
    if (units != "metal") c.fail("type", "a deep potential works in eV and Å: use `units: metal`");
    try {
      model_ = dp::load_model(c.string("model"));
    } catch (const InputError& e) {
      c.fail("model", e.detail());
    }
    model_->eval();
    const auto& map = model_->config().type_map;
    const auto elements = c.has("elements") ? c.strings("elements") : map;
    for (const auto& e : elements) {
      const auto it = std::find(map.begin(), map.end(), e);
      if (it == map.end())
        c.fail("elements", fmt::format("element {} is not in the model's type_map ({})", e,
                                       fmt::join(map, " ")));
      model_type_.push_back(static_cast<int>(it - map.begin()));
    }
  }
  double cutoff() const override { return model_->config().rcut; }
  bool half_list() const override { return false; }
  void check(const md::System& s) const override {
    if (s.ntypes > static_cast<int>(model_type_.size()))
      throw InputError(
          fmt::format("pair deep: the system has {} atom types but `elements` names {}", s.ntypes,
                      model_type_.size()));
  }
  void compute(md::System& s, const md::NeighborList& list, md::ForceTally& tally) override;

 private:
  dp::SeE2aModel model_;
  std::vector<int> model_type_;  // LAMMPS type − 1 → model type
  bool warned_ = false;
};

void DeepPotentialPair::compute(md::System& s, const md::NeighborList& list,
                                md::ForceTally& tally) {
  const auto& c = model_->config();
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
  std::vector<int> most(nt, 0);
  struct Candidate {
    double r2;
    long j;
  };
  std::vector<std::vector<Candidate>> found(nt);
  const double rc2 = c.rcut * c.rcut;
  for (long i = 0; i < n; ++i) {
    of_type[model_type_[type(i) - 1]].push_back(i);
    for (auto& f : found) f.clear();
    for (int k = 0; k < view.count(i); ++k) {
      const long j = view(i, k);
      double r2 = 0;
      for (int d = 0; d < 3; ++d) r2 += (x(j, d) - x(i, d)) * (x(j, d) - x(i, d));
      if (r2 < rc2) found[model_type_[type(j) - 1]].push_back({r2, j});
    }
    for (int t = 0; t < nt; ++t) {
      auto& f = found[t];
      most[t] = std::max(most[t], static_cast<int>(f.size()));
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
  if (!warned_) warned_ = dp::warn_if_sel_overflows(most, c.sel, c.type_map, "pair deep");
  for (int t = 0; t < nt; ++t) batch.of_type.push_back(torch::tensor(of_type[t], torch::kInt64));

  torch::Tensor r = batch.rij.detach().requires_grad_(true);
  const torch::Tensor atomic = model_->atomic_energy(r, batch);
  const torch::Tensor g = torch::autograd::grad({atomic.sum()}, {r})[0];
  const torch::Tensor filled = batch.neighbor >= 0;
  const torch::Tensor gm = g * filled.unsqueeze(-1);
  const torch::Tensor self = torch::arange(n, torch::kInt64).unsqueeze(1).expand({n, slots});
  const torch::Tensor j = torch::where(filled, batch.neighbor, self).reshape({-1});
  torch::Tensor force = torch::zeros({nall, 3}, torch::kFloat64);
  force.narrow(0, 0, n).add_(gm.sum(1));
  force.index_add_(0, j, -gm.reshape({-1, 3}));
  auto f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.f);
  const auto fa = force.accessor<double, 2>();
  for (long i = 0; i < nall; ++i)
    for (int d = 0; d < 3; ++d) f(i, d) += fa[i][d];
  Kokkos::deep_copy(s.f, f);
  if (tally.energy) {
    tally.potential += atomic.sum().item<double>();
    tally.virial += md::virial_fdotr(s);
  }
  if (tally.per_atom) {
    // Energy to the centre; each pair's −r_ij ⊗ g_ij to the neighbour (DeePMD's atom virial).
    auto ea = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), tally.eatom);
    auto va = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), tally.vatom);
    const auto e = atomic.detach();
    const auto w = (-(batch.rij.unsqueeze(-1) * gm.unsqueeze(-2))).reshape({-1, 9});
    const auto wa = w.accessor<double, 2>();
    const auto ja = j.accessor<long, 1>();
    for (long i = 0; i < n; ++i) ea(i) += e[i].item<double>();
    const int comp[6] = {0, 4, 8, 1, 2, 5};  // xx yy zz xy xz yz
    for (long k = 0; k < n * slots; ++k)
      for (int q = 0; q < 6; ++q) va(ja[k], q) += wa[k][comp[q]];
    Kokkos::deep_copy(tally.eatom, ea);
    Kokkos::deep_copy(tally.vatom, va);
  }
}

}  // namespace

void register_deep_potential_pair() {
  if (md::potential_registry().contains("deep")) return;
  Schema schema("A trained deep potential (family deep_potential, se_e2_a) as the MD force field.");
  schema.input_path("model", "model.pt written by `surrox train` (family deep_potential)");
  schema
      .strings("elements",
               "element of each atom type (type 1 first); default: the model's type_map")
      .optional();
  md::register_potential(
      "deep",
      [](const CaseNode& c, const std::string& units) {
        return std::make_unique<DeepPotentialPair>(c, units);
      },
      std::move(schema), "a learned se_e2_a deep potential (DeePMD-kit's descriptor)");
}

}  // namespace surrox::couplers
