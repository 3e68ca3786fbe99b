#pragma once
// What one force evaluation accumulates besides the forces: the caller sets the flags (on
// thermo steps, or when output asks for per-atom values) and reads the sums. Per-atom rows
// follow System's atoms (owned, then ghosts); the engine zeroes them before and folds ghost
// rows into their owners after, as it does for forces.
#include <array>

#include "solvers/md/md_system.hpp"

namespace surrox::solvers::md {

using VirialView = Kokkos::View<double* [6], Kokkos::LayoutRight>;  // xx yy zz xy xz yz

struct ForceTally {
  bool energy = false;    // fill `potential` and `virial`
  bool per_atom = false;  // also add per-atom energy and virial into eatom and vatom
  long step = 0;          // the step the forces are for (a potential's own output schedule)
  double potential = 0;   // energy of this rank's interactions (energy units)
  double virial = 0;      // Σ r·f over this rank's owned and ghost atoms (energy units)
  RealView eatom;         // (≥ nall)
  VirialView vatom;       // (≥ nall, 6)
};

// Σ x·f over owned and ghost atoms before ghost forces are folded back (LAMMPS
// virial_fdotr_compute): the global virial of any potential that leaves forces on ghosts.
double virial_fdotr(const System& s);
// Its diagonal, Σ x_d f_d for d = x, y, z (what a per-axis barostat needs).
std::array<double, 3> virial_fdotr_diagonal(const System& s);

}  // namespace surrox::solvers::md
