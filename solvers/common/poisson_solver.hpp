#pragma once
// The Poisson problem of a projection (pressure) or an inversion (streamfunction) on the cells of
// a DmdaGrid in finite-volume form: A φ = r, where A is −∇² integrated over each cell (its flux
// differences times the face areas; symmetric positive semi-definite) and r is the source
// integrated over each cell. The sides (PoissonBoundaries) are, in x, periodic or Dirichlet and,
// in z, homogeneous Neumann or Dirichlet:
//  - periodic x, Neumann z (a projection): constants are A's null space; the solution is defined
//    up to a constant and r's mean is removed.
//  - Dirichlet (an inversion on the interior nodes of a vertex grid, e.g. a streamfunction in a
//    closed basin): φ = 0 on a wall one spacing beyond the last unknown, A is definite.
//
// The caller owns both Views: rhs over the owned cells (DmdaGrid::owned_field), φ a ghosted field
// (DmdaGrid::ghosted_field) that comes back with its halo filled: neighbours' cells, periodic
// images, and the ghosts beyond the walls mirrored (Neumann) or 0 (Dirichlet).
//
// Implementations: KspPoissonSolver (PETSc KSP on the DMDA, any z grid, any sides) and
// FftPoissonSolver (FFTW's sine transform, uniform grids, Dirichlet on every side).
#include <string>

#include "core/field_set.hpp"

namespace surrox::io {
class Hdf5Checkpoint;
}

namespace surrox::solvers {

enum class PoissonSide { kPeriodic, kNeumann, kDirichlet };
struct PoissonBoundaries {
  PoissonSide x = PoissonSide::kPeriodic;  // kPeriodic or kDirichlet
  PoissonSide z = PoissonSide::kNeumann;   // kNeumann or kDirichlet
  bool singular() const { return x != PoissonSide::kDirichlet && z != PoissonSide::kDirichlet; }
};

struct PoissonReport {
  bool converged;
  int reason;  // the method's own code (KSPConvergedReason); negative: failed
  long iterations;
};

class DmdaGrid;
// The ghosts of φ beyond the walls: mirrored (Neumann) or 0 (Dirichlet), over the whole ghosted
// extent, so corners too. The halo between ranks must be filled already.
void fill_wall_ghosts(const DmdaGrid& grid, const PoissonBoundaries& sides, const Field3& phi);

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
