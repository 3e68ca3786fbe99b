#include "solvers/common/fft_poisson_solver.hpp"

#include <cmath>

#include "core/error.hpp"
#include "io/hdf5_checkpoint.hpp"

namespace surrox::solvers {

FftPoissonSolver::FftPoissonSolver(const DmdaGrid& grid, const WallNormalGrid& z, double hx,
                                   PoissonBoundaries sides)
    : grid_(grid), nx_(grid.cells(DmdaGrid::kX)), nz_(grid.cells(DmdaGrid::kZ)) {
  if (grid.dim() != 2 || sides.x != PoissonSide::kDirichlet || sides.z != PoissonSide::kDirichlet ||
      grid.periodic_x())
    throw Error("FftPoissonSolver: needs a 2D grid with Dirichlet walls on every side");
  if (!z.uniform()) throw Error("FftPoissonSolver: needs a uniform z grid");
  const double hz = z.dz(0), cx = hz / hx, cz = hx / hz;
  const double norm = 4.0 * static_cast<double>((nx_ + 1) * (nz_ + 1));
  scale_.resize(static_cast<std::size_t>(nx_ * nz_));
  for (long m = 0; m < nz_; ++m)
    for (long l = 0; l < nx_; ++l) {
      const double lambda =
          cx *
              (2 - 2 * std::cos(M_PI * static_cast<double>(l + 1) / static_cast<double>(nx_ + 1))) +
          cz * (2 - 2 * std::cos(M_PI * static_cast<double>(m + 1) / static_cast<double>(nz_ + 1)));
      scale_[m * nx_ + l] = 1 / (lambda * norm);
    }
  data_ = fftw_alloc_real(static_cast<std::size_t>(nx_ * nz_));
  if (!data_) throw Error("FftPoissonSolver: out of memory");
  plan_ = fftw_plan_r2r_2d(static_cast<int>(nz_), static_cast<int>(nx_), data_, data_, FFTW_RODFT00,
                           FFTW_RODFT00, FFTW_ESTIMATE);
  if (!plan_) throw Error("FftPoissonSolver: FFTW could not plan the sine transform");
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

FftPoissonSolver::~FftPoissonSolver() {
  if (plan_) fftw_destroy_plan(plan_);
  if (data_) fftw_free(data_);
}

PoissonReport FftPoissonSolver::solve(const Field3& rhs, const Field3& phi, int, double) {
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rhs);
  const int ranks = static_cast<int>(counts_.size());
  // The whole right-hand side on every rank, (z, x) row-major.
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
  fftw_execute(plan_);
  for (long n = 0; n < nx_ * nz_; ++n) data_[n] *= scale_[n];
  fftw_execute(plan_);  // RODFT00 is its own inverse up to the norm in scale_
  // This rank's ghosted box: owned cells and neighbours' from the whole solution, walls 0.
  auto p = Kokkos::create_mirror_view(phi);
  const long x0 = grid_.start(DmdaGrid::kX) - grid_.offset(DmdaGrid::kX);
  const long z0 = grid_.start(DmdaGrid::kZ) - grid_.offset(DmdaGrid::kZ);
  for (long k = 0; k < grid_.ghosted(DmdaGrid::kZ); ++k)
    for (long i = 0; i < grid_.ghosted(DmdaGrid::kX); ++i) {
      const long kg = z0 + k, ig = x0 + i;
      p(k, 0, i) = kg < 0 || kg >= nz_ || ig < 0 || ig >= nx_ ? 0.0 : data_[kg * nx_ + ig];
    }
  Kokkos::deep_copy(phi, p);
  ++solves_;
  return {true, 0, 0};
}

void FftPoissonSolver::save_state(io::Hdf5Checkpoint& checkpoint) const {
  checkpoint.scalars["fft_solves"] = static_cast<double>(solves_);
}

void FftPoissonSolver::load_state(const io::Hdf5Checkpoint& checkpoint) {
  solves_ = static_cast<long>(checkpoint.scalar("fft_solves"));
}

}  // namespace surrox::solvers
