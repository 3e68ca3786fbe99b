#pragma once
// The spatial decomposition (LAMMPS `comm_style brick`): the box is cut into cells of about
// half of cutoff + skin (a whole number per period), the MPI ranks form a 3-d grid and each
// owns a block of whole cells, so which rank owns an atom and which cell it is in follow from
// one integer cell index. Set once by setup(); read by migration, ghosts, sorting and binning.
#include <mpi.h>

#include <array>
#include <vector>

#include "solvers/md/md_system.hpp"

namespace surrox::solvers::md {

struct RankGrid {
  // Throws InputError when a rank's block is thinner than cutneigh along a direction.
  void setup(const Box& box, double cutneigh, MPI_Comm comm);
  std::array<long, 3> cell_of(const double* x) const;  // global cell of a wrapped position
  int owner_coord(int d, long cell) const;             // rank coordinate owning a cell along d
  bool owns(const std::array<double, 3>& x) const;     // whether this rank owns position x
  // Sends `send` to send_rank and receives `recv` from recv_rank (a copy when both are us).
  void exchange(std::vector<double>& send, int send_rank, int recv_rank, std::vector<double>& recv,
                int tag) const;

  MPI_Comm comm = MPI_COMM_SELF;
  int rank = 0, nprocs = 1;
  // Rank r sits at (r mod px, r / px mod py, r / (px py)); lower/upper: neighbour ranks.
  std::array<int, 3> dims{1, 1, 1}, coords{0, 0, 0}, lower{0, 0, 0}, upper{0, 0, 0};
  Box box;
  double cutneigh = 0;
  std::array<long, 3> nbin{1, 1, 1};                       // cells per period
  std::array<double, 3> bininv{1, 1, 1};                   // cells per length unit
  std::array<long, 3> margin{0, 0, 0};                     // cells a ghost may lie beyond the block
  std::array<long, 3> cell_lo{0, 0, 0}, cell_hi{1, 1, 1};  // this rank's cells [lo, hi)
  std::array<long, 3> window{1, 1, 1};                     // cells of the block plus its margins
  std::array<double, 3> sublo{0, 0, 0}, subhi{1, 1, 1};    // this rank's block in space
};

}  // namespace surrox::solvers::md
