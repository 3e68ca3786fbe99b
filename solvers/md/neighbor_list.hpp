#pragma once
// Spatial decomposition, ghost atoms and Verlet neighbour lists from a cell list (LAMMPS
// `neighbor bin` with `comm_style brick`).
//
// The box is cut into cells of about half of cutoff + skin (a whole number per period); the
// MPI ranks form a 3-d grid and each owns a block of whole cells, so which rank owns an atom
// and which cell it is in follow from one integer cell index. build() wraps owned atoms into
// the periodic box (updating image flags), hands atoms that left this rank's block to the
// neighbouring rank, and makes ghost copies of every atom within cutoff + skin of a block face
// (swaps: per direction x, y, z, one to the lower and one to the upper neighbour, shifted by a
// period across the box boundary; with one rank along a direction the neighbour is this rank).
// It then lists for each owned atom i its neighbours closer than cutoff + skin:
//  - half list (pairs once, Newton's third law): j > i in i's own cell, every atom in the
//    upper half of the cell stencil. Ghost cells are their source atoms' cells shifted by
//    whole periods, so a pair and its periodic mirror are never both listed.
//  - full list (every neighbour of i, for many-body potentials such as Stillinger–Weber).
// Between builds, update_ghosts() moves ghosts with their sources (forward communication) and
// reverse_forces() adds the forces on ghosts to their sources (reverse communication, Newton).
// build, update_ghosts, reverse_forces and displaced_too_far are collective over the ranks.
#include <mpi.h>

#include <vector>

#include "solvers/md/md_system.hpp"

namespace surrox::solvers::md {

class NeighborList {
 public:
  using Neighbors = Kokkos::View<int**, Kokkos::LayoutRight>;

  // Throws InputError when a rank's block is thinner than cutoff + skin along a direction
  // (not enough periodic images on one rank; too many ranks for the box on several).
  void setup(const Box& box, double cutoff, double skin, bool half, MPI_Comm comm = MPI_COMM_SELF);
  // Whether this rank owns an atom at (wrapped) position x.
  bool owns(const std::array<double, 3>& x) const;
  // Rebuilds ghosts and lists. `step` names the step in errors (lost atoms) and schedules the
  // spatial sort of owned atoms by cell (every `sort_every` steps, for memory locality; the
  // caller's per-atom arrays x, v, type, tag, image are permuted, forces are not).
  void build(System& s, long step);
  long sort_every = 1000;
  bool displaced_too_far(const System& s) const;
  void update_ghosts(System& s) const;
  void reverse_forces(System& s) const;

  bool half() const { return half_; }
  double cutoff() const { return cutoff_; }
  double skin() const { return skin_; }
  long builds() const { return builds_; }
  long max_neighbors() const { return static_cast<long>(neighbors_.extent(1)); }
  // Positions at the last build (owned atoms), for the displacement check and restarts.
  const Vec3View& xhold() const { return xhold_; }

  Neighbors neighbors_;  // (owned atom, k) → neighbour index (owned or ghost)
  IntView count_;        // neighbours of each owned atom
  int ranks() const { return nprocs_; }
  MPI_Comm comm() const { return comm_; }

 private:
  // One ghost swap: atoms `send_list` go to send_rank (shifted by `shift` periods along
  // `dim`); ghosts [first, first + count) come from recv_rank.
  struct Swap {
    int dim = 0, shift = 0, send_rank = 0, recv_rank = 0;
    IntView send_list;
    long first = 0, count = 0;
  };
  std::array<long, 3> cell_of(const double* x) const;  // global cell of a wrapped position
  int owner_coord(int d, long cell) const;             // rank coordinate owning a cell along d
  void migrate(System& s);
  void make_ghosts(System& s);
  void sort_atoms(System& s);
  void fill(const System& s);
  void exchange(std::vector<double>& send, int send_rank, int recv_rank, std::vector<double>& recv,
                int tag) const;

  MPI_Comm comm_ = MPI_COMM_SELF;
  int rank_ = 0, nprocs_ = 1;
  std::array<int, 3> dims_{1, 1, 1}, coords_{0, 0, 0}, lower_{0, 0, 0}, upper_{0, 0, 0};
  std::array<long, 3> cell_lo_{0, 0, 0}, cell_hi_{1, 1, 1};  // this rank's cells [lo, hi)
  std::array<double, 3> sublo_{0, 0, 0}, subhi_{1, 1, 1};
  std::vector<Swap> swaps_;
  std::vector<std::array<long, 3>> cell3_;  // global cell of every owned and ghost atom

  Box box_;
  double cutoff_ = 0, skin_ = 0, cutneigh_ = 0;
  bool half_ = true;
  long builds_ = 0, last_sort_ = -1;
  std::array<long, 3> nbin_{1, 1, 1}, margin_{0, 0, 0},
      grid_{1, 1, 1};  // grid_: this rank's window
  std::array<double, 3> bininv_{1, 1, 1};
  Vec3View xhold_;
  IntView bin_start_, bin_atoms_, atom_bin_, stencil_;
};

}  // namespace surrox::solvers::md
