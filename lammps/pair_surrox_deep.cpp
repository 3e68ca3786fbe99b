#include "lammps/pair_surrox_deep.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "atom.h"
#include "comm.h"
#include "core/error.hpp"
#include "error.h"
#include "force.h"
#include "memory.h"
#include "neighbor.h"
#include "surrogates/deep_potential/local_evaluation.hpp"
#include "surrogates/deep_potential/model_deviation.hpp"
#include "surrogates/deep_potential/model_file.hpp"
#include "update.h"

namespace surrox::lammps {

namespace dp = surrogates::deep_potential;
using LAMMPS_NS::LAMMPS;

namespace {

// DeePMD-kit's pair_style deepmd keywords surrox/deep does not implement: named in the error
// instead of being mistaken for a model file.
const char* const kUnsupportedKeywords[] = {"relative_v",          "fparam",   "aparam",
                                            "fparam_from_compute", "ttm",      "atomic",
                                            "virtual_len",         "spin_norm"};

bool is_keyword(const std::string& word) {
  return word == "out_freq" || word == "out_file" || word == "relative" ||
         std::find(std::begin(kUnsupportedKeywords), std::end(kUnsupportedKeywords), word) !=
             std::end(kUnsupportedKeywords);
}

}  // namespace

PairSurroxDeep::PairSurroxDeep(LAMMPS* lmp) : Pair(lmp) {
  single_enable = 0;
  restartinfo = 0;
  one_coeff = 1;
  manybody_flag = 1;
}

PairSurroxDeep::~PairSurroxDeep() {
  if (allocated) {
    memory->destroy(setflag);
    memory->destroy(cutsq);
  }
}

LAMMPS_NS::Pair* PairSurroxDeep::create(LAMMPS* lmp) { return new PairSurroxDeep(lmp); }

void register_pair_styles(LAMMPS* lmp) {
  (*lmp->force->pair_map)["surrox/deep"] = &PairSurroxDeep::create;
}

void PairSurroxDeep::fail(const std::string& message) {
  error->all(FLERR, std::string("pair_style surrox/deep: ") + message);
}

void PairSurroxDeep::allocate() {
  allocated = 1;
  const int n = atom->ntypes;
  memory->create(setflag, n + 1, n + 1, "pair:setflag");
  memory->create(cutsq, n + 1, n + 1, "pair:cutsq");
  for (int i = 1; i <= n; ++i)
    for (int j = i; j <= n; ++j) setflag[i][j] = 0;
}

void PairSurroxDeep::settings(int narg, char** arg) {
  models_.clear();
  cutoff_ = 0;
  int k = 0;
  for (; k < narg && !is_keyword(arg[k]); ++k) {
    Model m;
    m.path = arg[k];
    if (!std::filesystem::is_regular_file(m.path))
      fail(m.path + " is neither a model file nor a keyword (out_freq, out_file, relative)");
    try {
      m.model = dp::load_model(m.path);
    } catch (const surrox::Error& e) {
      fail(e.what());
    }
    m.model->eval();
    cutoff_ = std::max(cutoff_, m.model->config().rcut);
    models_.push_back(std::move(m));
  }
  if (models_.empty())
    fail(
        "name a model file first: pair_style surrox/deep model.pt [model1.pt ...] [out_freq N] "
        "[out_file FILE] [relative V]");
  for (; k < narg; k += 2) {
    const std::string key = arg[k];
    if (!is_keyword(key)) fail("unknown keyword " + key + " (out_freq, out_file, relative)");
    if (key != "out_freq" && key != "out_file" && key != "relative")
      fail("DeePMD-kit's keyword " + key + " is not supported (out_freq, out_file, relative are)");
    if (k + 1 >= narg) fail(key + " needs a value");
    const char* value = arg[k + 1];
    if (key == "out_freq") {
      out_freq_ = LAMMPS_NS::utils::inumeric(FLERR, value, false, lmp);
      if (out_freq_ < 1) fail("out_freq must be at least 1");
    } else if (key == "out_file") {
      out_file_ = value;
    } else {
      relative_ = true;
      relative_level_ = LAMMPS_NS::utils::numeric(FLERR, value, false, lmp);
      if (relative_level_ <= 0) fail("relative needs a positive level V in eV/Å");
    }
  }
  devi_width_ = 3 * static_cast<int>(models_.size());
  comm_reverse = models_.size() > 1 ? devi_width_ : 0;
}

void PairSurroxDeep::coeff(int narg, char** arg) {
  if (models_.empty()) fail("pair_coeff before pair_style's models");
  if (!allocated) allocate();
  if (narg < 2 || std::strcmp(arg[0], "*") != 0 || std::strcmp(arg[1], "*") != 0)
    fail("use pair_coeff * * [element of each atom type ...]");
  const int ntypes = atom->ntypes;
  std::vector<std::string> elements(arg + 2, arg + narg);
  if (elements.empty()) {
    const auto& map = models_[0].model->config().type_map;
    if (static_cast<int>(map.size()) < ntypes)
      fail("the system has " + std::to_string(ntypes) + " atom types but " + models_[0].path +
           " knows " + std::to_string(map.size()) +
           ": name the element of each type in pair_coeff");
    elements.assign(map.begin(), map.begin() + ntypes);
  }
  if (static_cast<int>(elements.size()) != ntypes)
    fail("pair_coeff * * names " + std::to_string(elements.size()) + " elements for " +
         std::to_string(ntypes) + " atom types");
  for (Model& m : models_) {
    const auto& map = m.model->config().type_map;
    m.type_of.clear();
    for (const std::string& e : elements) {
      const auto it = std::find(map.begin(), map.end(), e);
      if (it == map.end()) {
        std::string known;
        for (const auto& t : map) known += (known.empty() ? "" : " ") + t;
        fail("element " + e + " is not in the type_map of " + m.path + " (" + known + ")");
      }
      m.type_of.push_back(static_cast<int>(it - map.begin()));
    }
  }
  for (int i = 1; i <= ntypes; ++i)
    for (int j = i; j <= ntypes; ++j) setflag[i][j] = 1;
}

void PairSurroxDeep::init_style() {
  if (force->newton_pair == 0)
    fail("requires newton pair on (ghost forces return to their owners)");
  if (std::strcmp(update->unit_style, "metal") != 0)
    fail(std::string("a surrox deep potential works in eV and Å: use units metal, not ") +
         update->unit_style);
  // No request for a LAMMPS neighbour list: the full list is built here (ghost_neighbor_list.hpp).
  if (models_.size() > 1 && comm->me == 0 && !out_.is_open()) {
    out_.open(out_file_);
    if (!out_) fail("cannot write " + out_file_);
    out_ << dp::model_devi_header() << std::flush;
  }
}

double PairSurroxDeep::init_one(int, int) { return cutoff_; }

void PairSurroxDeep::compute(int eflag, int vflag) {
  ev_init(eflag, vflag);
  const long nlocal = atom->nlocal, nall = nlocal + atom->nghost;
  std::vector<double> x(3 * nall);
  for (long i = 0; i < nall; ++i)
    for (int d = 0; d < 3; ++d) x[3 * i + d] = atom->x[i][d];
  if (neighbor->ncalls != list_built_at_ || static_cast<long>(list_.first.size()) != nlocal + 1) {
    list_ = build_ghost_neighbor_list(x.data(), nlocal, nall, cutoff_ + neighbor->skin);
    list_built_at_ = neighbor->ncalls;
  }
  std::vector<int> types(nall);
  auto evaluate = [&](Model& m) {
    for (long i = 0; i < nall; ++i) types[i] = m.type_of[atom->type[i] - 1];
    const dp::LocalAtoms atoms{
        nlocal, nall, x.data(), types.data(), list_.first.data(), list_.neighbors.data()};
    dp::LocalEvaluation e = dp::evaluate_local(m.model, atoms);
    dp::warn_once_if_sel_overflows(e, m.model->config(), "pair_style surrox/deep " + m.path,
                                   m.warned);
    return e;
  };
  const dp::LocalEvaluation e = evaluate(models_[0]);
  const auto fa = e.force.accessor<double, 2>();
  for (long i = 0; i < nall; ++i)
    for (int d = 0; d < 3; ++d) atom->f[i][d] += fa[i][d];
  const auto ae = e.atomic.accessor<double, 1>();
  if (eflag_global)
    for (long i = 0; i < nlocal; ++i) eng_vdwl += ae[i];
  if (eflag_atom)
    for (long i = 0; i < nlocal; ++i) eatom[i] += ae[i];
  if (vflag_atom) {
    const torch::Tensor w = dp::slot_virials(e);
    const auto wa = w.accessor<double, 2>();
    const auto ja = e.j.accessor<long, 1>();
    const int comp[6] = {0, 4, 8, 1, 2, 5};  // LAMMPS's xx yy zz xy xz yz
    for (long k = 0; k < w.size(0); ++k)
      for (int q = 0; q < 6; ++q) vatom[ja[k]][q] += wa[k][comp[q]];
  }
  if (vflag_fdotr) virial_fdotr_compute();

  const long step = static_cast<long>(update->ntimestep);
  if (models_.size() < 2 || step % out_freq_ != 0 || step == last_devi_step_) return;
  last_devi_step_ = step;
  // Every model's forces side by side (ghost rows folded into their owners) and its virial.
  const long models = static_cast<long>(models_.size());
  devi_forces_.assign(nall * devi_width_, 0.0);
  std::vector<double> virial(9 * models, 0.0);
  for (long k = 0; k < models; ++k) {
    const dp::LocalEvaluation other = k == 0 ? e : evaluate(models_[k]);
    const auto oa = other.force.accessor<double, 2>();
    for (long i = 0; i < nall; ++i)
      for (int d = 0; d < 3; ++d) devi_forces_[i * devi_width_ + 3 * k + d] = oa[i][d];
    const torch::Tensor w = dp::slot_virials(other).sum(0);
    for (int q = 0; q < 9; ++q) virial[9 * k + q] = w[q].item<double>();
  }
  comm->reverse_comm_pair(this);
  const dp::ModelDeviRow r =
      dp::reduce_model_devi(step, devi_forces_.data(), nlocal, models, std::move(virial), world,
                            relative_ ? relative_level_ : 0);
  if (comm->me == 0) out_ << dp::model_devi_line(r) << std::flush;
}

int PairSurroxDeep::pack_reverse_comm(int n, int first, double* buf) {
  int m = 0;
  for (int i = first; i < first + n; ++i)
    for (int q = 0; q < devi_width_; ++q) buf[m++] = devi_forces_[i * devi_width_ + q];
  return m;
}

void PairSurroxDeep::unpack_reverse_comm(int n, int* list, double* buf) {
  int m = 0;
  for (int i = 0; i < n; ++i)
    for (int q = 0; q < devi_width_; ++q) devi_forces_[list[i] * devi_width_ + q] += buf[m++];
}

}  // namespace surrox::lammps
