#pragma once
// pair_style surrox/deep: a surrox deep potential (model.pt of `surrox train`, family
// deep_potential) as a LAMMPS pair style, with DeePMD-kit's pair_style deepmd syntax:
//
//   pair_style surrox/deep model.pt [model1.pt ...] [out_freq N] [out_file md.out] [relative V]
//   pair_coeff * * Si [O ...]        (the element of each LAMMPS type; none: the type_map order)
//
// The first model drives the dynamics; with several, every out_freq steps the model deviation
// (DeePMD-kit's md.out columns, surrogates/deep_potential/model_deviation.hpp) is reduced over
// ranks and appended to out_file. Energies and forces come from the same code as surrox's own
// MD engine (surrogates/deep_potential/local_evaluation.hpp) on owned and ghost atoms; ghost
// forces reach their owners by LAMMPS's reverse communication (newton pair on). Global virial
// by Σ x·f, per-atom energy and virial (DeePMD-kit's atom virial) for compute pe/atom and
// stress/atom.
#include <fstream>
#include <string>
#include <vector>

#include "lammps/ghost_neighbor_list.hpp"
#include "pair.h"
#include "surrogates/deep_potential/se_e2_a.hpp"

namespace surrox::lammps {

class PairSurroxDeep : public LAMMPS_NS::Pair {
 public:
  explicit PairSurroxDeep(LAMMPS_NS::LAMMPS* lmp);
  ~PairSurroxDeep() override;
  void compute(int eflag, int vflag) override;
  void settings(int narg, char** arg) override;
  void coeff(int narg, char** arg) override;
  void init_style() override;
  double init_one(int i, int j) override;
  int pack_reverse_comm(int n, int first, double* buf) override;
  void unpack_reverse_comm(int n, int* list, double* buf) override;

  // LAMMPS's creator signature (Force::PairCreator).
  static LAMMPS_NS::Pair* create(LAMMPS_NS::LAMMPS* lmp);

 private:
  struct Model {
    std::string path;
    surrogates::deep_potential::SeE2aModel model{nullptr};
    std::vector<int> type_of;  // LAMMPS type − 1 → index in the model's type_map
    bool warned = false;
  };
  [[noreturn]] void fail(const std::string& message);
  void allocate();

  std::vector<Model> models_;
  double cutoff_ = 0;
  long out_freq_ = 100, last_devi_step_ = -1;
  std::string out_file_ = "md.out";
  bool relative_ = false;
  double relative_level_ = 0;
  std::ofstream out_;  // rank 0, with several models
  GhostNeighborList list_;
  long long list_built_at_ = -1;     // Neighbor::ncalls when list_ was built
  std::vector<double> devi_forces_;  // (nall, 3 × models) for the reverse communication
  int devi_width_ = 0;
};

// Adds surrox's pair styles to a LAMMPS instance's style map (before its input runs).
void register_pair_styles(LAMMPS_NS::LAMMPS* lmp);

}  // namespace surrox::lammps
