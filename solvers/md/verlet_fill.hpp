#pragma once
// Binning and Verlet-list fill (LAMMPS `neighbor bin`): atoms are counted into the cells of
// this rank's window (its block plus margins), and each owned atom lists the atoms of a
// stencil of cells around its own that are closer than cutoff + skin.
//  - half list (pairs once, Newton's third law): j > i in i's own cell, every atom in the
//    upper half of the stencil. Ghost cells are their source atoms' cells shifted by whole
//    periods, so a pair and its periodic mirror are never both listed.
//  - full list (every neighbour of i, for many-body potentials such as Stillinger–Weber).
#include <array>
#include <vector>

#include "solvers/md/rank_grid.hpp"

namespace surrox::solvers::md {

using NeighborIndices = Kokkos::View<int**, Kokkos::LayoutRight>;  // (owned atom, k) → atom

class VerletFill {
 public:
  // The stencil: cells whose nearest points are closer than the neighbour cutoff.
  void setup(const RankGrid& grid, bool half);
  // Lists the neighbours of each owned atom; `cells`: global cell of every owned and ghost
  // atom. Grows `neighbors` (columns) until every list fits.
  void fill(const System& s, const RankGrid& grid, const std::vector<std::array<long, 3>>& cells,
            NeighborIndices& neighbors, IntView& count);

 private:
  bool half_ = true;
  IntView bin_start_, bin_atoms_, atom_bin_, stencil_;
};

}  // namespace surrox::solvers::md
