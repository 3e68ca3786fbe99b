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
  const std::size_t n = static_cast<std::size_t>(nx_ * nz_);
  factor_.resize(n);
  data_ = fftw_alloc_real(n);
  if (!data_) throw Error("FftTridiagonalPoissonSolver: out of memory");
  const int length = static_cast<int>(nx_);
  const fftw_r2r_kind to = periodic ? FFTW_R2HC : FFTW_RODFT00;
  const fftw_r2r_kind back = periodic ? FFTW_HC2R : FFTW_RODFT00;
  forward_ = fftw_plan_many_r2r(1, &length, static_cast<int>(nz_), data_, nullptr, 1, length, data_,
                                nullptr, 1, length, &to, FFTW_ESTIMATE);
  backward_ = fftw_plan_many_r2r(1, &length, static_cast<int>(nz_), data_, nullptr, 1, length,
                                 data_, nullptr, 1, length, &back, FFTW_ESTIMATE);
  if (!forward_ || !backward_)
    throw Error("FftTridiagonalPoissonSolver: FFTW could not plan the transforms");
  int ranks = 1;
  MPI_Comm_size(grid.comm(), &ranks);
  const long mine[4] = {grid.start(DmdaGrid::kX), grid.owned(DmdaGrid::kX),
                        grid.start(DmdaGrid::kZ), grid.owned(DmdaGrid::kZ)};
  blocks_.resize(4 * static_cast<std::size_t>(ranks));
  MPI_Allgather(mine, 4, MPI_LONG, blocks_.data(), 4, MPI_LONG, grid.comm());
  counts_.resize(ranks), displacements_.resize(ranks);
  int offset = 0;
  for (int r = 0; r < ranks; ++r) {
    counts_[r] = static_cast<int>(blocks_[4 * r + 1] * blocks_[4 * r + 3]);
    displacements_[r] = offset;
    offset += counts_[r];
  }
  gathered_.resize(static_cast<std::size_t>(offset));
}

FftTridiagonalPoissonSolver::~FftTridiagonalPoissonSolver() {
  if (forward_) fftw_destroy_plan(forward_);
  if (backward_) fftw_destroy_plan(backward_);
  if (data_) fftw_free(data_);
}

void FftTridiagonalPoissonSolver::gather(const Field3& rhs) {
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rhs);
  const int ranks = static_cast<int>(counts_.size());
  const double* blocks = r.data();
  if (ranks > 1) {
    MPI_Allgatherv(r.data(), static_cast<int>(r.size()), MPI_DOUBLE, gathered_.data(),
                   counts_.data(), displacements_.data(), MPI_DOUBLE, grid_.comm());
    blocks = gathered_.data();
  }
  for (int q = 0; q < ranks; ++q) {
    const long xs = blocks_[4 * q], xm = blocks_[4 * q + 1], zs = blocks_[4 * q + 2],
               zm = blocks_[4 * q + 3];
    const double* block = blocks + displacements_[q];
    for (long k = 0; k < zm; ++k)
      for (long i = 0; i < xm; ++i) data_[(zs + k) * nx_ + xs + i] = block[k * xm + i];
  }
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
  gather(rhs);
  fftw_execute(forward_);
  thomas();
  fftw_execute(backward_);
  scatter(phi);
  ++solves_;
  return {true, 0, 0};
}

void FftTridiagonalPoissonSolver::save_state(io::Hdf5Checkpoint& checkpoint) const {
  checkpoint.scalars["fft_solves"] = static_cast<double>(solves_);
}

void FftTridiagonalPoissonSolver::load_state(const io::Hdf5Checkpoint& checkpoint) {
  solves_ = static_cast<long>(checkpoint.scalar("fft_solves"));
}

}  // namespace surrox::solvers
