#pragma once
// The O-grid split over the ranks of a communicator in slabs of whole rows in j (wall-normal):
// rank 0 holds the wall, the last rank the far field, and i (periodic) stays whole on every
// rank, so the periodic wrap needs no communication. Also the traffic between slabs: ghost-row
// exchanges, sums added in rank order and gathers of whole fields.
#include <mpi.h>

#include <array>
#include <vector>

#include "solvers/airfoil/views.hpp"

namespace surrox::solvers::airfoil {

// How nj rows split over `ranks` for up to `levels` multigrid levels: slabs of whole blocks of
// 2^(levels−1) rows, so every level coarsens locally, with at least 2 rows per rank on the
// coarsest level (the MUSCL and viscous stencils reach 2 rows into the neighbour's slab); fewer
// levels where the rows run short. Levels also stop where the grid gets odd or under 8 × 4
// cells. InputError when even a single grid leaves a rank under 2 rows.
struct SlabLayout {
  int levels = 1;       // levels used
  int grid_levels = 1;  // levels the grid alone allows (as on one rank)
  std::vector<long> rows;
};
SlabLayout layout_slabs(long ni, long nj, int ranks, long levels);

// This rank's rows of one grid level: rows first_row() .. first_row() + rows() − 1 of nj().
class Slab {
 public:
  Slab() = default;
  // rows[r]: the rows of rank r of comm; ni: cells around.
  Slab(MPI_Comm comm, std::vector<long> rows, long ni);

  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  long ni() const { return ni_; }
  long nj() const { return nj_; }
  long first_row() const { return j0_; }
  long rows() const { return nl_; }
  const std::vector<long>& rows_of_ranks() const { return rows_; }
  bool has_wall() const { return rank_ == 0; }
  bool has_far_field() const { return rank_ == ranks_ - 1; }
  // The next coarser level's slab: every other node, so every rank's rows halved.
  Slab coarsened() const;

  // Sums of per-rank values, added in rank order on every rank, so every rank gets the same
  // bits whatever MPI's reduction order (collective).
  void sum_over_ranks(double* values, int n) const;
  // Rows [first, first + rows()) of `a` (4, *, ni) from every rank, as 4 host ni × nj arrays
  // (collective).
  std::array<HostMatrix, 4> gather(const Array3& a, long first, const char* label) const;

 private:
  MPI_Comm comm_ = MPI_COMM_SELF;
  int rank_ = 0, ranks_ = 1;
  long ni_ = 0, nj_ = 0, j0_ = 0, nl_ = 0;
  std::vector<long> rows_;
};

// Exchanges `ghosts` rows at both edges of a slab array (4, rows + 2·ghosts, ni) with the
// neighbouring ranks: rows [g, 2g) go to the lower neighbour's rows [rows + g, rows + 2g), rows
// [rows, rows + g) to the upper neighbour's rows [0, g). A no-op on one rank. Owns its send and
// receive buffers and their host mirrors (MPI works on host memory).
class GhostRows {
 public:
  GhostRows() = default;
  // Buffers for `ghosts` rows of `components` variables (the flow's 4; ν̃'s 1).
  GhostRows(const Slab& slab, long ghosts, int components = 4);
  void exchange(const Array3& a) const;  // collective with the neighbours

 private:
  MPI_Comm comm_ = MPI_COMM_SELF;
  int rank_ = 0, ranks_ = 1;
  long ni_ = 0;
  Array3 send_lo_, send_hi_, recv_lo_, recv_hi_;
  Array3::HostMirror host_send_lo_, host_send_hi_, host_recv_lo_, host_recv_hi_;
};

}  // namespace surrox::solvers::airfoil
