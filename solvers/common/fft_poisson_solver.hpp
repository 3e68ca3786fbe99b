#pragma once
// The Poisson problem of poisson_solver.hpp with Dirichlet sides (φ = 0 on walls one spacing
// beyond the unknowns: the interior nodes of a uniform vertex grid) by FFTW's type-I discrete
// sine transform (RODFT00) in x and z: the sines diagonalise A exactly, with eigenvalues
//   λ_lm = hz/hx (2 − 2 cos(π(l + 1)/(nx + 1))) + hx/hz (2 − 2 cos(π(m + 1)/(nz + 1))),
// so the solution is exact to round-off (the same discrete problem as KspPoissonSolver's). A
// transform of the whole grid is one rank's work: every rank gathers the right-hand side and
// transforms it redundantly, as the KSP default factors the whole operator on every rank.
// 2D only; the z grid must be uniform. Plans are FFTW_ESTIMATE: the same arithmetic in every
// run, so restarts stay bitwise.
#include <fftw3.h>

#include <vector>

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
  long nx_, nz_;
  std::vector<double> scale_;  // 1/(λ_lm · 4(nx + 1)(nz + 1)), the inverse and FFTW's norm
  double* data_ = nullptr;     // the whole grid, (z, x) row-major
  fftw_plan plan_ = nullptr;
  // Every rank's owned block: xs, xm, zs, zm; and the gather's counts and displacements.
  std::vector<long> blocks_;
  std::vector<int> counts_, displacements_;
  std::vector<double> gathered_;
  long solves_ = 0;
};

}  // namespace surrox::solvers
