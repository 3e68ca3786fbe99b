#pragma once
// Spatial sort of the owned atoms by cell (LAMMPS atom_modify sort), for memory locality of
// the neighbour and force loops.
#include "solvers/md/rank_grid.hpp"

namespace surrox::solvers::md {

// Permutes x, v, image, type and tag of the owned atoms into cell order (stable within a
// cell); forces are not permuted. Nothing moves when the atoms are already in order.
void sort_by_cell(System& s, const RankGrid& grid);

}  // namespace surrox::solvers::md
