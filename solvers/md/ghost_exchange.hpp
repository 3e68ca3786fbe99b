#pragma once
// Ghost atoms (LAMMPS Comm::borders, forward_comm, reverse_comm): copies of every atom within
// cutoff + skin of a face of this rank's block, made by swaps per direction x, y, z, one to the
// lower and one to the upper neighbour, shifted by a period across the box boundary (with one
// rank along a direction the neighbour is this rank). Ghosts of later directions include
// ghosts of earlier ones, so edges and corners need no swaps of their own.
#include <array>
#include <vector>

#include "solvers/md/rank_grid.hpp"

namespace surrox::solvers::md {

class GhostExchange {
 public:
  // Appends ghosts after the owned atoms (sets s.nall) and records each atom's global cell,
  // ghosts' cells shifted by whole periods like their positions. Collective.
  void build(System& s, const RankGrid& grid);
  // The box's periods changed (between builds): forward() shifts by the new lengths.
  void set_box(const Box& box) { box_ = box; }
  // Moves ghosts with their source atoms (between builds). Collective.
  void forward(System& s) const;
  // Adds the rows of ghost atoms to their source atoms' rows (forces, per-atom energy and
  // virial: any number of columns). Collective.
  void reverse(Kokkos::View<double**, Kokkos::LayoutRight> values) const;
  // Global cell of every owned and ghost atom at the last build.
  const std::vector<std::array<long, 3>>& cells() const { return cells_; }

 private:
  // Atoms `send_list` go to send_rank (shifted by `shift` periods along `dim`); ghosts
  // [first, first + count) come from recv_rank.
  struct Swap {
    int dim = 0, shift = 0, send_rank = 0, recv_rank = 0;
    IntView send_list;
    long first = 0, count = 0;
  };
  std::vector<Swap> swaps_;
  std::vector<std::array<long, 3>> cells_;
  Box box_;
  int rank_ = 0;
  MPI_Comm comm_ = MPI_COMM_SELF;
};

}  // namespace surrox::solvers::md
