#pragma once
// The Poisson problem of a projection (pressure) or an inversion (streamfunction) on the cells of
// a DmdaGrid, periodic in the horizontal, homogeneous Neumann at the z walls, in finite-volume
// form: A φ = r, where A is −∇² integrated over each cell (its flux differences times the face
// areas; symmetric positive semi-definite, constants in its null space) and r is the source
// integrated over each cell. The solution is defined up to a constant; r's mean is removed.
//
// The caller owns both Views: rhs over the owned cells (DmdaGrid::owned_field), φ a ghosted field
// (DmdaGrid::ghosted_field) that comes back with its halo filled: neighbours' cells, periodic
// images, and the ghosts beyond the walls mirrored (the Neumann condition).
//
// Implementations: KspPoissonSolver (PETSc KSP on the DMDA, any z grid). A solver by FFT for
// uniform periodic grids belongs behind the same interface.
#include <string>

#include "core/field_set.hpp"

namespace surrox::io {
class Hdf5Checkpoint;
}

namespace surrox::solvers {

struct PoissonReport {
  bool converged;
  int reason;  // the method's own code (KSPConvergedReason); negative: failed
  long iterations;
};

class PoissonSolver {
 public:
  virtual ~PoissonSolver() = default;
  // slot: which kept solution to start from and to replace (iterative methods start from the
  // previous solve's answer in the same slot; a caller with several solves per step, one per
  // Runge–Kutta stage, gives each its own). tolerance: absolute residual tolerance in the units
  // of rhs, on top of the relative one (ignored by direct methods).
  virtual PoissonReport solve(const Field3& rhs, const Field3& phi, int slot, double tolerance) = 0;
  virtual long iterations() const = 0;  // summed over every solve
  virtual long solves() const = 0;
  // The kept solutions and the counters, for bitwise restarts.
  virtual void save_state(io::Hdf5Checkpoint& checkpoint) const = 0;
  virtual void load_state(const io::Hdf5Checkpoint& checkpoint) = 0;
};

}  // namespace surrox::solvers
