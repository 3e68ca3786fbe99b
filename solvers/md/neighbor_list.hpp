#pragma once
// Ghost atoms and Verlet neighbour lists over a spatial decomposition (LAMMPS `neighbor bin`
// with `comm_style brick`). build() wraps owned atoms into the periodic box, hands atoms that
// left this rank's block to the neighbouring rank (atom_migration), sorts them by cell every
// `sort_every` steps (atom_sort), makes ghost copies near the block faces (ghost_exchange) and
// lists for each owned atom its neighbours closer than cutoff + skin (verlet_fill). Between
// builds, update_ghosts() moves ghosts with their sources and reverse_forces() adds the forces
// on ghosts to their sources (Newton). build, update_ghosts, reverse_forces, reverse and
// displaced_too_far are collective over the ranks.
#include <mpi.h>

#include "solvers/md/ghost_exchange.hpp"
#include "solvers/md/rank_grid.hpp"
#include "solvers/md/verlet_fill.hpp"

namespace surrox::solvers::md {

// Read access to a built list inside kernels: count(i) neighbours of owned atom i, the k-th
// being atom (i, k) (owned or ghost). A copy shares the list's memory.
class NeighborView {
 public:
  NeighborView() = default;
  NeighborView(NeighborIndices neighbors, IntView count) : neighbors_(neighbors), count_(count) {}
  KOKKOS_INLINE_FUNCTION int count(long i) const { return count_(i); }
  KOKKOS_INLINE_FUNCTION int operator()(long i, int k) const { return neighbors_(i, k); }

 private:
  NeighborIndices neighbors_;
  IntView count_;
};

class NeighborList {
 public:
  // Throws InputError when a rank's block is thinner than cutoff + skin along a direction
  // (not enough periodic images on one rank; too many ranks for the box on several).
  void setup(const Box& box, double cutoff, double skin, bool half, MPI_Comm comm = MPI_COMM_SELF);
  // Whether this rank owns an atom at (wrapped) position x.
  bool owns(const std::array<double, 3>& x) const { return grid_.owns(x); }
  // Rebuilds ghosts and lists. `step` names the step in errors (lost atoms) and schedules the
  // spatial sort of owned atoms by cell (every `sort_every` steps, for memory locality; the
  // caller's per-atom arrays x, v, type, tag, image are permuted, forces are not).
  void build(System& s, long step);
  long sort_every = 1000;
  // A restart: rebuilds the lists of the last build from the owned atoms as they were at that
  // build (in the order it left them, so without sorting again) and restores the build count and
  // the step of the last sort, so that later builds and sorts fall on the straight run's steps.
  void rebuild_saved(System& s, long step, long builds, long last_sort);
  long last_sort() const { return last_sort_; }
  // Whether some atom moved more than half the skin since the last build; after a box change
  // the budget shrinks by how far a box corner moved (LAMMPS Neighbor::check_distance).
  bool displaced_too_far(const System& s) const;
  // The box changed (a barostat scaled it and the atoms): ghosts move with the new periods
  // from now on, and the next build bins the new box.
  void set_box(const Box& box);
  // The box at the last build (what a restart rebuilds the lists in).
  const Box& build_box() const { return box_hold_; }
  void update_ghosts(System& s) const { ghosts_.forward(s); }
  void reverse_forces(System& s) const;
  // Adds ghost rows of any per-atom array (nall rows) into their owners' rows.
  void reverse(Kokkos::View<double**, Kokkos::LayoutRight> values) const {
    ghosts_.reverse(values);
  }

  NeighborView view() const { return {neighbors_, count_}; }
  bool half() const { return half_; }
  double cutoff() const { return cutoff_; }
  double skin() const { return skin_; }
  long builds() const { return builds_; }
  long max_neighbors() const { return static_cast<long>(neighbors_.extent(1)); }
  // Positions at the last build (owned atoms), for the displacement check and restarts.
  const Vec3View& xhold() const { return xhold_; }
  int ranks() const { return grid_.nprocs; }
  MPI_Comm comm() const { return grid_.comm; }

 private:
  RankGrid grid_;
  GhostExchange ghosts_;
  VerletFill fill_;
  NeighborIndices neighbors_;
  IntView count_;
  double cutoff_ = 0, skin_ = 0;
  bool half_ = true;
  long builds_ = 0, last_sort_ = -1;
  Vec3View xhold_;
  Box box_, box_hold_;  // now and at the last build

  void build_lists(System& s, long step, bool may_sort);
};

}  // namespace surrox::solvers::md
