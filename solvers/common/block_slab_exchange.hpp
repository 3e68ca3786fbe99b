#pragma once
// Moves a 2D field between a DmdaGrid's owned blocks (the PETSc decomposition in x and z) and
// slabs of whole z rows (the decomposition FFTW's MPI transforms use), with one MPI_Alltoallv
// each way. Slab values are rows [slab_start, slab_start + slab_rows) of the whole grid,
// `cells(x)` per row.
#include <vector>

#include "solvers/common/dmda_grid.hpp"

namespace surrox::solvers {

class BlockSlabExchange {
 public:
  // Collective over the grid's communicator; each rank passes its own slab. The grid must
  // outlive the exchange.
  BlockSlabExchange(const DmdaGrid& grid, long slab_start, long slab_rows);

  // A field over the owned cells (DmdaGrid::owned_field) into this rank's slab.
  void to_slabs(const Field3& owned, double* slab);
  // The slabs back into a ghosted field's owned cells, with the halo between ranks and the
  // periodic images filled (DmdaGrid::exchange); the ghosts beyond walls are the caller's.
  void to_field(const double* slab, const Field3& ghosted);

 private:
  struct Part {  // one rank's owned block and slab
    long xs, xm, zs, zm, slab_start, slab_rows;
  };
  // The rows of `from`'s block that lie in `to`'s slab: [first, last).
  static std::pair<long, long> shared_rows(const Part& from, const Part& to);

  const DmdaGrid& grid_;
  MPI_Comm comm_;
  long nx_;
  int rank_ = 0;
  std::vector<Part> parts_;
  // Counts and displacements (doubles) of the block → slab direction; the reverse swaps them.
  std::vector<int> block_counts_, block_offsets_, slab_counts_, slab_offsets_;
  std::vector<double> send_, receive_;
  std::vector<double> block_;  // this rank's owned values, (z, x) row-major, xm per row
};

}  // namespace surrox::solvers
