#pragma once
// The Poisson problem of poisson_solver.hpp on a 2D DmdaGrid by a transform in x and a
// tridiagonal solve per mode in z: FFTW's real DFT (R2HC/HC2R) for periodic x or its type-I sine
// transform (RODFT00) for Dirichlet x diagonalises the x part of A, leaving for each mode l
//   −cb_k φ_{k−1} + (cx_k λ_l + cb_k + ct_k) φ_k − ct_k φ_{k+1} = r̂_k,
// cx_k = dz_k/hx, cb_k = hx/dzc_k, ct_k = hx/dzc_{k+1} (a Neumann wall drops its term, a
// Dirichlet wall keeps it on the diagonal), solved by the Thomas algorithm on any z grid
// (stretched included): the same discrete problem as KspPoissonSolver's, to round-off. The
// singular mode (periodic x, Neumann z, l = 0) is pinned at φ_0 = 0 after the right-hand side's
// mean is removed: the answer differs from another solver's by a constant only.
//
// On several ranks the work is distributed: the right-hand side moves from the DMDA's blocks to
// slabs of whole z rows (BlockSlabExchange), each rank transforms its rows, FFTW's distributed
// transpose gives each rank whole z columns of some modes for the Thomas solves, and the way
// back mirrors it; no rank holds the whole grid. 2D only. Plans are FFTW_ESTIMATE: the same
// arithmetic in every run, so restarts stay bitwise.
#include <fftw3-mpi.h>

#include <memory>
#include <vector>

#include "solvers/common/block_slab_exchange.hpp"
#include "solvers/common/dmda_grid.hpp"
#include "solvers/common/poisson_solver.hpp"
#include "solvers/common/wall_normal_grid.hpp"

namespace surrox::solvers {

class FftTridiagonalPoissonSolver final : public PoissonSolver {
 public:
  // The grid must outlive the solver; its x sides must match sides.x. Error unless 2D.
  FftTridiagonalPoissonSolver(const DmdaGrid& grid, const WallNormalGrid& z, double hx,
                              PoissonBoundaries sides);
  ~FftTridiagonalPoissonSolver() override;
  FftTridiagonalPoissonSolver(const FftTridiagonalPoissonSolver&) = delete;
  FftTridiagonalPoissonSolver& operator=(const FftTridiagonalPoissonSolver&) = delete;

  // slot and tolerance are ignored: the solve is direct.
  PoissonReport solve(const Field3& rhs, const Field3& phi, int slot, double tolerance) override;
  long iterations() const override { return 0; }
  long solves() const override { return solves_; }
  void save_state(io::Hdf5Checkpoint& checkpoint) const override;
  void load_state(const io::Hdf5Checkpoint& checkpoint) override;

 private:
  void copy_rhs(const Field3& rhs);  // one rank
  void thomas();
  void scatter(const Field3& phi) const;
  // Several ranks: the same steps on slabs (see the file comment).
  void solve_distributed(const Field3& rhs, const Field3& phi);
  void thomas_columns(long first_mode, long modes);

  const DmdaGrid& grid_;
  PoissonBoundaries sides_;
  long nx_, nz_;
  std::vector<double> lambda_;         // the x eigenvalue of each transform index, scaled
  std::vector<double> cx_, cb_, ct_;   // per row k: the x factor and the z couplings
  std::vector<double> below_, above_;  // per row: the couplings kept off the diagonal
  std::vector<double> factor_;         // Thomas: modified upper diagonal, (z, x) like data_
  double* data_ = nullptr;  // one rank: the whole grid, (z, x) row-major; several: the slab
  fftw_plan forward_ = nullptr, backward_ = nullptr;
  // Several ranks only: this rank's z rows and x modes, the plans on them.
  std::unique_ptr<BlockSlabExchange> exchange_;
  long rows_ = 0, first_row_ = 0, modes_ = 0, first_mode_ = 0;
  double* columns_ = nullptr;  // the transposed slab: modes × nz
  fftw_plan transpose_ = nullptr, transpose_back_ = nullptr;
  long solves_ = 0;
};

}  // namespace surrox::solvers
