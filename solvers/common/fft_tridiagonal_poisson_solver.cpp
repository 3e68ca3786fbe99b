#include "solvers/common/fft_tridiagonal_poisson_solver.hpp"

#include <cmath>

#include "core/error.hpp"
#include "io/hdf5_checkpoint.hpp"

namespace surrox::solvers {

FftTridiagonalPoissonSolver::FftTridiagonalPoissonSolver(const DmdaGrid& grid,
                                                         const WallNormalGrid& z, double hx,
                                                         PoissonBoundaries sides)
    : grid_(grid), sides_(sides), nx_(grid.cells(DmdaGrid::kX)), nz_(grid.cells(DmdaGrid::kZ)) {
  const bool periodic = sides.x == PoissonSide::kPeriodic;
  if (grid.dim() != 2 || periodic != grid.periodic_x() || sides.x == PoissonSide::kNeumann ||
      sides.z == PoissonSide::kPeriodic)
    throw Error(
        "FftTridiagonalPoissonSolver: needs a 2D grid, x periodic or Dirichlet as the "
        "grid's, z Neumann or Dirichlet");
  // The x eigenvalues per transform index, divided by the transform pair's norm, and the norm
  // folded into the z couplings instead: A/norm is solved for the unnormalised transform.
  const double norm = periodic ? static_cast<double>(nx_) : 2.0 * static_cast<double>(nx_ + 1);
  lambda_.resize(nx_);
  for (long j = 0; j < nx_; ++j) {
    const double l = periodic ? static_cast<double>(std::min(j, nx_ - j)) : j + 1.0;
    const double angle = periodic ? 2 * M_PI * l / static_cast<double>(nx_)
                                  : M_PI * l / static_cast<double>(nx_ + 1);
    lambda_[j] = (2 - 2 * std::cos(angle)) * norm;
  }
  const bool dirichlet = sides.z == PoissonSide::kDirichlet;
  cx_.resize(nz_), below_.resize(nz_), above_.resize(nz_), cb_.resize(nz_), ct_.resize(nz_);
  for (long k = 0; k < nz_; ++k) {
    cx_[k] = z.dz(k) / hx;
    cb_[k] = (k > 0 || dirichlet) ? hx / z.dzc(k) * norm : 0.0;  // on the diagonal
    ct_[k] = (k < nz_ - 1 || dirichlet) ? hx / z.dzc(k + 1) * norm : 0.0;
    below_[k] = k > 0 ? hx / z.dzc(k) * norm : 0.0;  // off the diagonal
    above_[k] = k < nz_ - 1 ? hx / z.dzc(k + 1) * norm : 0.0;
  }
  int ranks = 1;
  MPI_Comm_size(grid.comm(), &ranks);
  const int length = static_cast<int>(nx_);
  const fftw_r2r_kind to = periodic ? FFTW_R2HC : FFTW_RODFT00;
  const fftw_r2r_kind back = periodic ? FFTW_HC2R : FFTW_RODFT00;
  // Rows of the real transform: the whole grid on one rank, this rank's slab on several.
  long rows = nz_;
  std::size_t size = static_cast<std::size_t>(nx_ * nz_);
  if (ranks > 1) {
    fftw_mpi_init();  // once per process; later calls return at once
    ptrdiff_t r = 0, r0 = 0, m = 0, m0 = 0;
    const ptrdiff_t local =
        fftw_mpi_local_size_2d_transposed(nz_, nx_, grid.comm(), &r, &r0, &m, &m0);
    rows_ = r, first_row_ = r0, modes_ = m, first_mode_ = m0;
    rows = rows_;
    size = static_cast<std::size_t>(std::max<ptrdiff_t>(local, 1));
  }
  // Thomas: every mode's modified diagonal on one rank, one column's at a time on several.
  factor_.resize(ranks > 1 ? static_cast<std::size_t>(nz_) : size);
  data_ = fftw_alloc_real(size);
  if (!data_) throw Error("FftTridiagonalPoissonSolver: out of memory");
  forward_ = fftw_plan_many_r2r(1, &length, static_cast<int>(rows), data_, nullptr, 1, length,
                                data_, nullptr, 1, length, &to, FFTW_ESTIMATE);
  backward_ = fftw_plan_many_r2r(1, &length, static_cast<int>(rows), data_, nullptr, 1, length,
                                 data_, nullptr, 1, length, &back, FFTW_ESTIMATE);
  if (rows > 0 && (!forward_ || !backward_))
    throw Error("FftTridiagonalPoissonSolver: FFTW could not plan the transforms");
  if (ranks > 1) {
    columns_ = fftw_alloc_real(size);
    if (!columns_) throw Error("FftTridiagonalPoissonSolver: out of memory");
    transpose_ = fftw_mpi_plan_transpose(nz_, nx_, data_, columns_, grid.comm(), FFTW_ESTIMATE);
    transpose_back_ =
        fftw_mpi_plan_transpose(nx_, nz_, columns_, data_, grid.comm(), FFTW_ESTIMATE);
    if (!transpose_ || !transpose_back_)
      throw Error("FftTridiagonalPoissonSolver: FFTW could not plan the distributed transposes");
    exchange_ = std::make_unique<BlockSlabExchange>(grid, first_row_, rows_);
  }
}

FftTridiagonalPoissonSolver::~FftTridiagonalPoissonSolver() {
  if (forward_) fftw_destroy_plan(forward_);
  if (backward_) fftw_destroy_plan(backward_);
  if (transpose_) fftw_destroy_plan(transpose_);
  if (transpose_back_) fftw_destroy_plan(transpose_back_);
  if (data_) fftw_free(data_);
  if (columns_) fftw_free(columns_);
}

void FftTridiagonalPoissonSolver::copy_rhs(const Field3& rhs) {
  // One rank: its block is the whole grid.
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rhs);
  for (long k = 0; k < nz_; ++k)
    for (long i = 0; i < nx_; ++i) data_[k * nx_ + i] = r(k, 0, i);
  if (sides_.x == PoissonSide::kPeriodic && sides_.z == PoissonSide::kNeumann) {
    // Consistency with the constant null space: remove the mean (as KSP's null space does).
    double mean = 0;
    for (long n = 0; n < nx_ * nz_; ++n) mean += data_[n];
    mean /= static_cast<double>(nx_ * nz_);
    for (long n = 0; n < nx_ * nz_; ++n) data_[n] -= mean;
  }
}

void FftTridiagonalPoissonSolver::thomas() {
  // All modes at once, row by row (unit stride over the modes). Row k of mode j:
  //   −below_k φ_{k−1} + (cx_k λ_j + cb_k + ct_k) φ_k − above_k φ_{k+1} = d_k.
  const bool pin = sides_.x == PoissonSide::kPeriodic && sides_.z == PoissonSide::kNeumann;
  for (long k = 0; k < nz_; ++k) {
    double* d = data_ + k * nx_;
    double* c = factor_.data() + k * nx_;
    const double* d_prev = data_ + (k - 1) * nx_;
    const double* c_prev = factor_.data() + (k - 1) * nx_;
    for (long j = 0; j < nx_; ++j) {
      double diag = cx_[k] * lambda_[j] + cb_[k] + ct_[k];
      double rhs = d[j];
      if (k > 0) {
        diag += below_[k] * c_prev[j];  // c′ holds −above/diag
        rhs += below_[k] * d_prev[j];
      }
      c[j] = -above_[k] / diag;
      d[j] = rhs / diag;
    }
    if (pin && k == 0) c[0] = 0, d[0] = 0;  // the singular mode: φ_0 = 0
  }
  for (long k = nz_ - 2; k >= 0; --k) {
    double* d = data_ + k * nx_;
    const double* c = factor_.data() + k * nx_;
    const double* d_next = data_ + (k + 1) * nx_;
    for (long j = 0; j < nx_; ++j) d[j] -= c[j] * d_next[j];
  }
}

void FftTridiagonalPoissonSolver::scatter(const Field3& phi) const {
  // This rank's ghosted box from the whole solution: neighbours' cells, periodic images, and
  // beyond the walls 0 (Dirichlet) or the mirror (Neumann).
  auto p = Kokkos::create_mirror_view(phi);
  const bool periodic = sides_.x == PoissonSide::kPeriodic;
  const bool mirror = sides_.z == PoissonSide::kNeumann;
  const long x0 = grid_.start(DmdaGrid::kX) - grid_.offset(DmdaGrid::kX);
  const long z0 = grid_.start(DmdaGrid::kZ) - grid_.offset(DmdaGrid::kZ);
  for (long k = 0; k < grid_.ghosted(DmdaGrid::kZ); ++k)
    for (long i = 0; i < grid_.ghosted(DmdaGrid::kX); ++i) {
      long kg = z0 + k, ig = x0 + i;
      bool zero = false;
      if (ig < 0 || ig >= nx_) {
        if (periodic)
          ig = (ig + nx_) % nx_;
        else
          zero = true;
      }
      if (kg < 0 || kg >= nz_) {
        if (mirror)
          kg = kg < 0 ? -1 - kg : 2 * nz_ - 1 - kg;
        else
          zero = true;
      }
      p(k, 0, i) = zero ? 0.0 : data_[kg * nx_ + ig];
    }
  Kokkos::deep_copy(phi, p);
}

PoissonReport FftTridiagonalPoissonSolver::solve(const Field3& rhs, const Field3& phi, int,
                                                 double) {
  if (exchange_) {
    solve_distributed(rhs, phi);
    ++solves_;
    return {true, 0, 0};
  }
  copy_rhs(rhs);
  fftw_execute(forward_);
  thomas();
  fftw_execute(backward_);
  scatter(phi);
  ++solves_;
  return {true, 0, 0};
}

void FftTridiagonalPoissonSolver::thomas_columns(long first_mode, long modes) {
  // Mode j's column is contiguous here: columns_[(j − first_mode) · nz + k]. The same
  // recurrences as thomas(), one mode at a time.
  const bool pin = sides_.x == PoissonSide::kPeriodic && sides_.z == PoissonSide::kNeumann;
  for (long t = 0; t < modes; ++t) {
    const long j = first_mode + t;
    double* d = columns_ + t * nz_;
    double* c = factor_.data();
    for (long k = 0; k < nz_; ++k) {
      double diag = cx_[k] * lambda_[j] + cb_[k] + ct_[k];
      double rhs = d[k];
      if (k > 0) {
        diag += below_[k] * c[k - 1];
        rhs += below_[k] * d[k - 1];
      }
      c[k] = -above_[k] / diag;
      d[k] = rhs / diag;
      if (pin && k == 0 && j == 0) c[0] = 0, d[0] = 0;  // the singular mode: φ_0 = 0
    }
    for (long k = nz_ - 2; k >= 0; --k) d[k] -= c[k] * d[k + 1];
  }
}

void FftTridiagonalPoissonSolver::solve_distributed(const Field3& rhs, const Field3& phi) {
  exchange_->to_slabs(rhs, data_);
  if (sides_.x == PoissonSide::kPeriodic && sides_.z == PoissonSide::kNeumann) {
    double sum = 0;
    for (long n = 0; n < rows_ * nx_; ++n) sum += data_[n];
    const double mean = grid_.global_sum(sum) / static_cast<double>(nx_ * nz_);
    for (long n = 0; n < rows_ * nx_; ++n) data_[n] -= mean;
  }
  if (rows_ > 0) fftw_execute(forward_);
  fftw_execute(transpose_);  // z rows of all modes → whole z columns of this rank's modes
  thomas_columns(first_mode_, modes_);
  fftw_execute(transpose_back_);
  if (rows_ > 0) fftw_execute(backward_);
  exchange_->to_field(data_, phi);
  fill_wall_ghosts(grid_, sides_, phi);
}

void FftTridiagonalPoissonSolver::save_state(io::Hdf5Checkpoint& checkpoint) const {
  checkpoint.scalars["fft_solves"] = static_cast<double>(solves_);
}

void FftTridiagonalPoissonSolver::load_state(const io::Hdf5Checkpoint& checkpoint) {
  solves_ = static_cast<long>(checkpoint.scalar("fft_solves"));
}

}  // namespace surrox::solvers
