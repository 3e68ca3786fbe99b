#pragma once
// One deep-potential model on one rank's atoms as an MD engine holds them: owned atoms first,
// then ghosts (periodic images and other ranks' atoms), and a list of each owned atom's
// neighbours among owned and ghost atoms (any superset of those within rcut, in any order).
// Both hosts of a surrox model call it: surrox's MD engine (`pair: {type: deep}`,
// couplers/deep_potential/deep_potential_pair.cpp) and LAMMPS (`pair_style surrox/deep`, lammps/),
// so that the two give the same energies and forces by construction. Torch only: no Kokkos, no
// LAMMPS.
#include <torch/torch.h>

#include <vector>

#include "surrogates/deep_potential/se_e2_a.hpp"

namespace surrox::surrogates::deep_potential {

struct LocalAtoms {
  long nlocal = 0, nall = 0;
  const double* x = nullptr;        // (nall, 3) row-major, Å
  const int* type = nullptr;        // (nall) index into the model's type_map
  const long* first = nullptr;      // (nlocal + 1): atom i's neighbours are
  const long* neighbors = nullptr;  // neighbors[first[i]] … neighbors[first[i + 1] − 1]
};

struct LocalEvaluation {
  torch::Tensor atomic;  // (nlocal) energy of each owned atom, eV
  torch::Tensor gm;      // (nlocal·slots, 3) ∂E/∂r_ij of each slot, zero in empty slots
  torch::Tensor rij;     // (nlocal, slots, 3) r_j − r_i of each slot
  torch::Tensor j;       // (nlocal·slots) the atom in each slot (the centre for an empty slot)
  torch::Tensor force;  // (nall, 3) −∂E/∂x on owned and ghost rows (ghost rows: their owners')
  // The most neighbours of each type any centre had within rcut and within the three-body
  // rcut (for warn_if_sel_overflows).
  std::vector<int> most, most3;
};

// Keeps each centre's sel[t] nearest neighbours of type t within rcut (ties by atom index), as
// the periodic frame's environment does (environment.hpp), and differentiates the energy.
LocalEvaluation evaluate_local(SeE2aModel& model, const LocalAtoms& atoms);

// Warns (once per model: pass the same flag) where a centre had more neighbours than sel.
void warn_once_if_sel_overflows(const LocalEvaluation& e, const SeE2aConfig& config,
                                const std::string& where, bool& warned);

// Each slot's virial −r_ij ⊗ ∂E/∂r_ij as rows of 9 (row-major 3 × 3), to be added to the
// slot's atom j (DeePMD-kit's atom virial); their sum is the rank's virial tensor.
torch::Tensor slot_virials(const LocalEvaluation& e);

}  // namespace surrox::surrogates::deep_potential
