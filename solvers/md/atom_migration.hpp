#pragma once
// Owned atoms between list builds: wrapped back into the periodic box (image flags kept), and
// handed to the neighbouring rank when they left this rank's block (LAMMPS Comm::exchange).
#include "solvers/md/rank_grid.hpp"

namespace surrox::solvers::md {

// Wraps owned atoms into [lo, hi). Throws Error naming the lowest id of an atom that is no
// longer finite or flew a million box lengths (`step` names the step). Collective.
void wrap_atoms(System& s, const RankGrid& grid, long step);
// Moves atoms whose cell another rank owns to that rank, one direction at a time; the owned
// atoms are reloaded (new Views) only when some moved. Collective.
void migrate_atoms(System& s, const RankGrid& grid);

}  // namespace surrox::solvers::md
