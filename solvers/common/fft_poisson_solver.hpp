#pragma once
// The Poisson problem of poisson_solver.hpp with Dirichlet sides (φ = 0 on walls one spacing
// beyond the unknowns: the interior nodes of a uniform vertex grid) by FFTW's type-I discrete
// sine transform (RODFT00) in x and z: the sines diagonalise A exactly, with eigenvalues
//   λ_lm = hz/hx (2 − 2 cos(π(l + 1)/(nx + 1))) + hx/hz (2 − 2 cos(π(m + 1)/(nz + 1))),
// so the solution is exact to round-off (the same discrete problem as KspPoissonSolver's). On
// several ranks the transform is distributed (FFTW's MPI transforms): the right-hand side moves
// from the DMDA's blocks to slabs of z rows, the forward transform ends transposed (slabs of x
// modes), the inverse starts from there, and the solution moves back; no rank holds the whole
// grid. 2D only; the z grid must be uniform. Plans are FFTW_ESTIMATE: the same arithmetic in
// every run, so restarts stay bitwise.
#include <fftw3-mpi.h>

#include <memory>
#include <vector>

#include "solvers/common/block_slab_exchange.hpp"
#include "solvers/common/dmda_grid.hpp"
#include "solvers/common/poisson_solver.hpp"
#include "solvers/common/wall_normal_grid.hpp"

namespace surrox::solvers {

class FftPoissonSolver final : public PoissonSolver {
 public:
  // The grid must outlive the solver. Error unless 2D, Dirichlet on all sides, z uniform.
  FftPoissonSolver(const DmdaGrid& grid, const WallNormalGrid& z, double hx,
                   PoissonBoundaries sides);
  ~FftPoissonSolver() override;
  FftPoissonSolver(const FftPoissonSolver&) = delete;
  FftPoissonSolver& operator=(const FftPoissonSolver&) = delete;

  // slot and tolerance are ignored: the solve is direct.
  PoissonReport solve(const Field3& rhs, const Field3& phi, int slot, double tolerance) override;
  long iterations() const override { return 0; }
  long solves() const override { return solves_; }
  void save_state(io::Hdf5Checkpoint& checkpoint) const override;
  void load_state(const io::Hdf5Checkpoint& checkpoint) override;

 private:
  const DmdaGrid& grid_;
  PoissonBoundaries sides_;
  long nx_, nz_;
  // 1/(λ_lm · 4(nx + 1)(nz + 1)), the inverse and FFTW's norm: index m · nx + l on one rank,
  // (l − first x mode) · nz + m of this rank's transposed slab on several.
  std::vector<double> scale_;
  double* data_ = nullptr;  // one rank: the whole grid, (z, x) row-major; several: the slab
  fftw_plan plan_ = nullptr, inverse_ = nullptr;  // inverse_: several ranks only
  std::unique_ptr<BlockSlabExchange> exchange_;   // several ranks only
  long modes_ = 0;                                // x modes in this rank's transposed slab
  long solves_ = 0;
};

}  // namespace surrox::solvers
