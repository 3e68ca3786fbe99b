#pragma once
// A box of cells distributed over MPI ranks by a PETSc DMDA, periodic in the horizontal (x, and
// y in 3D) and bounded by walls in z, with a box stencil one cell wide: the decomposition, the
// ghosted local arrays and the halo exchange of the structured-grid solvers. A 2D grid may have
// walls in x too (a closed basin): its ghost columns beyond them are then the caller's, like
// the ghost rows beyond the z walls.
//
// Fields on it are rank-3 (z, y, x) LayoutRight Views over the rank's ghosted box (Field3). In
// 2D the DMDA is 2D over (x, z), ny = 1 and y has no ghosts, so a 2D field is laid out exactly
// as a (z, x) array. Axes are numbered x = 0, y = 1, z = 2 in the accessors.
#include <mpi.h>

#include <array>
#include <string>

#include "core/field_set.hpp"
#include "solvers/common/cell_loops.hpp"
#include "solvers/common/petsc_handles.hpp"

namespace surrox::solvers {

class DmdaGrid {
 public:
  static constexpr int kX = 0, kY = 1, kZ = 2;

  // cells = {nx, ny, nz}; ny is 1 when dim == 2. periodic_x = false (2D only): walls in x.
  // Collective over comm.
  DmdaGrid(MPI_Comm comm, int dim, std::array<long, 3> cells, bool periodic_x = true);

  int dim() const { return dim_; }
  bool periodic_x() const { return periodic_x_; }
  MPI_Comm comm() const { return comm_; }
  DM dm() const { return da_.get(); }
  long cells(int axis) const { return cells_[axis]; }      // global count
  long start(int axis) const { return start_[axis]; }      // first owned global index
  long owned(int axis) const { return owned_[axis]; }      // owned count
  long ghosted(int axis) const { return ghosted_[axis]; }  // extent of the local arrays
  long offset(int axis) const { return offset_[axis]; }    // first owned index in them
  // The owned cells as indices of the ghosted arrays, and as indices from 0.
  CellBox owned_box() const;
  CellBox owned_from_zero() const;

  // A ghosted field (zeros), and one over the owned cells only (the DMDA's vector order).
  Field3 ghosted_field(const std::string& label) const;
  Field3 owned_field(const std::string& label) const;

  // Fills the ghost cells that belong to neighbouring ranks and the periodic images from their
  // owners; the ghost layers beyond the walls keep their values (the caller's boundary
  // conditions).
  void exchange(const Field3& field) const;
  // The owned cells of a global vector of the DMDA into a ghosted field, with its halo as
  // exchange() fills it.
  void global_to_field(Vec global, const Field3& field) const;

  double global_sum(double value) const;
  // The largest value over the ranks; NaN on any rank wins.
  double global_max(double value) const;

 private:
  int dim_;
  bool periodic_x_ = true;
  MPI_Comm comm_;
  DmHandle da_;
  std::array<long, 3> cells_{}, start_{}, owned_{}, ghosted_{}, offset_{};
  VecHandle local_, global_;
};

}  // namespace surrox::solvers
