#include "surrogates/deep_potential/local_evaluation.hpp"

#include <algorithm>

#include "surrogates/deep_potential/environment.hpp"

namespace surrox::surrogates::deep_potential {

namespace {

struct Candidate {
  double r2;
  long j;
};

// The batch of the owned atoms: each slot's r_ij and neighbour, centres grouped by type.
EnvBatch local_batch(const SeE2aConfig& c, const LocalAtoms& a, LocalEvaluation& e) {
  const long n = a.nlocal, slots = c.slots();
  const int nt = c.ntypes();
  std::vector<int> offset(nt + 1, 0);
  for (int t = 0; t < nt; ++t) offset[t + 1] = offset[t] + c.sel[t];
  EnvBatch batch;
  batch.frames = 1;
  batch.atoms = n;
  batch.rij = torch::zeros({n, slots, 3}, torch::kFloat64);
  batch.neighbor = torch::full({n, slots}, -1L, torch::kInt64);
  double* rij = batch.rij.data_ptr<double>();
  long* nb = batch.neighbor.data_ptr<long>();
  std::vector<std::vector<long>> of_type(nt);
  e.most.assign(nt, 0);
  e.most3.assign(nt, 0);
  const double rc2 = c.rcut * c.rcut;
  const double rc3_2 = c.three_body.rcut * c.three_body.rcut;
  const double* x = a.x;
  std::vector<std::vector<Candidate>> found(nt);
  for (long i = 0; i < n; ++i) {
    of_type[a.type[i]].push_back(i);
    for (auto& f : found) f.clear();
    for (long k = a.first[i]; k < a.first[i + 1]; ++k) {
      const long j = a.neighbors[k];
      double r2 = 0;
      for (int d = 0; d < 3; ++d)
        r2 += (x[3 * j + d] - x[3 * i + d]) * (x[3 * j + d] - x[3 * i + d]);
      if (r2 < rc2) found[a.type[j]].push_back({r2, j});
    }
    for (int t = 0; t < nt; ++t) {
      auto& f = found[t];
      e.most[t] = std::max(e.most[t], static_cast<int>(f.size()));
      if (c.three_body.enabled())
        e.most3[t] = std::max(
            e.most3[t], static_cast<int>(std::count_if(
                            f.begin(), f.end(), [&](const Candidate& q) { return q.r2 < rc3_2; })));
      std::sort(f.begin(), f.end(), [](const Candidate& p, const Candidate& q) {
        return p.r2 < q.r2 || (p.r2 == q.r2 && p.j < q.j);
      });
      const long keep = std::min<long>(static_cast<long>(f.size()), c.sel[t]);
      for (long k = 0; k < keep; ++k) {
        const long slot = i * slots + offset[t] + k;
        nb[slot] = f[k].j;
        for (int d = 0; d < 3; ++d) rij[3 * slot + d] = x[3 * f[k].j + d] - x[3 * i + d];
      }
    }
  }
  for (int t = 0; t < nt; ++t) batch.of_type.push_back(torch::tensor(of_type[t], torch::kInt64));
  return batch;
}

}  // namespace

LocalEvaluation evaluate_local(SeE2aModel& model, const LocalAtoms& atoms) {
  const SeE2aConfig& c = model->config();
  const long n = atoms.nlocal, slots = c.slots();
  LocalEvaluation e;
  const EnvBatch batch = local_batch(c, atoms, e);
  torch::Tensor r = batch.rij.detach().requires_grad_(true);
  e.atomic = model->atomic_energy(r, batch);
  const torch::Tensor g = torch::autograd::grad({e.atomic.sum()}, {r})[0];
  e.atomic = e.atomic.detach();
  const torch::Tensor filled = batch.neighbor >= 0;
  e.gm = (g * filled.unsqueeze(-1)).reshape({-1, 3});
  const torch::Tensor self = torch::arange(n, torch::kInt64).unsqueeze(1).expand({n, slots});
  e.j = torch::where(filled, batch.neighbor, self).reshape({-1});
  e.rij = batch.rij;
  e.force = torch::zeros({atoms.nall, 3}, torch::kFloat64);
  e.force.narrow(0, 0, n).add_(e.gm.view({n, slots, 3}).sum(1));
  e.force.index_add_(0, e.j, -e.gm);
  return e;
}

void warn_once_if_sel_overflows(const LocalEvaluation& e, const SeE2aConfig& c,
                                const std::string& where, bool& warned) {
  if (warned) return;
  warned = warn_if_sel_overflows(e.most, c.sel, c.type_map, where);
  if (c.three_body.enabled())
    warned = warn_if_sel_overflows(e.most3, c.three_body.sel, c.type_map,
                                   where + " (three_body: its rcut and sel)") ||
             warned;
}

torch::Tensor slot_virials(const LocalEvaluation& e) {
  return (-(e.rij.reshape({-1, 3}).unsqueeze(-1) * e.gm.unsqueeze(-2))).reshape({-1, 9});
}

}  // namespace surrox::surrogates::deep_potential
