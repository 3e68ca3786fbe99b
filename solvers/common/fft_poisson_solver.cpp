#include "solvers/common/fft_poisson_solver.hpp"

#include <cmath>

#include "core/error.hpp"
#include "io/hdf5_checkpoint.hpp"

namespace surrox::solvers {

FftPoissonSolver::FftPoissonSolver(const DmdaGrid& grid, const WallNormalGrid& z, double hx,
                                   PoissonBoundaries sides)
    : grid_(grid), sides_(sides), nx_(grid.cells(DmdaGrid::kX)), nz_(grid.cells(DmdaGrid::kZ)) {
  if (grid.dim() != 2 || sides.x != PoissonSide::kDirichlet || sides.z != PoissonSide::kDirichlet ||
      grid.periodic_x())
    throw Error("FftPoissonSolver: needs a 2D grid with Dirichlet walls on every side");
  if (!z.uniform()) throw Error("FftPoissonSolver: needs a uniform z grid");
  const double hz = z.dz(0), cx = hz / hx, cz = hx / hz;
  const double norm = 4.0 * static_cast<double>((nx_ + 1) * (nz_ + 1));
  const auto scale = [&](long l, long m) {
    const double lambda =
        cx * (2 - 2 * std::cos(M_PI * static_cast<double>(l + 1) / static_cast<double>(nx_ + 1))) +
        cz * (2 - 2 * std::cos(M_PI * static_cast<double>(m + 1) / static_cast<double>(nz_ + 1)));
    return 1 / (lambda * norm);
  };
  int ranks = 1;
  MPI_Comm_size(grid.comm(), &ranks);
  if (ranks == 1) {
    scale_.resize(static_cast<std::size_t>(nx_ * nz_));
    for (long m = 0; m < nz_; ++m)
      for (long l = 0; l < nx_; ++l) scale_[m * nx_ + l] = scale(l, m);
    data_ = fftw_alloc_real(static_cast<std::size_t>(nx_ * nz_));
    if (!data_) throw Error("FftPoissonSolver: out of memory");
    plan_ = fftw_plan_r2r_2d(static_cast<int>(nz_), static_cast<int>(nx_), data_, data_,
                             FFTW_RODFT00, FFTW_RODFT00, FFTW_ESTIMATE);
    if (!plan_) throw Error("FftPoissonSolver: FFTW could not plan the sine transform");
    return;
  }
  fftw_mpi_init();  // once per process; later calls return at once
  // Real-data r2r transforms take the complex DFT's distribution, counted in doubles.
  ptrdiff_t rows = 0, first_row = 0, modes = 0, first_mode = 0;
  const ptrdiff_t local = fftw_mpi_local_size_2d_transposed(nz_, nx_, grid.comm(), &rows,
                                                            &first_row, &modes, &first_mode);
  modes_ = modes;
  data_ = fftw_alloc_real(static_cast<std::size_t>(std::max<ptrdiff_t>(local, 1)));
  if (!data_) throw Error("FftPoissonSolver: out of memory");
  plan_ = fftw_mpi_plan_r2r_2d(nz_, nx_, data_, data_, grid.comm(), FFTW_RODFT00, FFTW_RODFT00,
                               FFTW_ESTIMATE | FFTW_MPI_TRANSPOSED_OUT);
  inverse_ = fftw_mpi_plan_r2r_2d(nz_, nx_, data_, data_, grid.comm(), FFTW_RODFT00, FFTW_RODFT00,
                                  FFTW_ESTIMATE | FFTW_MPI_TRANSPOSED_IN);
  if (!plan_ || !inverse_)
    throw Error("FftPoissonSolver: FFTW could not plan the distributed sine transform");
  scale_.resize(static_cast<std::size_t>(modes * nz_));
  for (long t = 0; t < modes; ++t)
    for (long m = 0; m < nz_; ++m) scale_[t * nz_ + m] = scale(first_mode + t, m);
  exchange_ = std::make_unique<BlockSlabExchange>(grid, first_row, rows);
}

FftPoissonSolver::~FftPoissonSolver() {
  if (plan_) fftw_destroy_plan(plan_);
  if (inverse_) fftw_destroy_plan(inverse_);
  if (data_) fftw_free(data_);
}

PoissonReport FftPoissonSolver::solve(const Field3& rhs, const Field3& phi, int, double) {
  ++solves_;
  if (exchange_) {
    // Distributed: blocks → z slabs, transform (ending in x-mode slabs), scale, inverse, back.
    exchange_->to_slabs(rhs, data_);
    fftw_execute(plan_);
    for (long n = 0; n < modes_ * nz_; ++n) data_[n] *= scale_[n];
    fftw_execute(inverse_);
    exchange_->to_field(data_, phi);
    fill_wall_ghosts(grid_, sides_, phi);
    return {true, 0, 0};
  }
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rhs);
  auto p = Kokkos::create_mirror_view(phi);
  const long ox = grid_.offset(DmdaGrid::kX), oz = grid_.offset(DmdaGrid::kZ);
  for (long k = 0; k < nz_; ++k)
    for (long i = 0; i < nx_; ++i) data_[k * nx_ + i] = r(k, 0, i);
  fftw_execute(plan_);
  for (long n = 0; n < nx_ * nz_; ++n) data_[n] *= scale_[n];
  fftw_execute(plan_);  // RODFT00 is its own inverse up to the norm in scale_
  // The ghosted box: the solution, walls 0.
  for (long k = 0; k < grid_.ghosted(DmdaGrid::kZ); ++k)
    for (long i = 0; i < grid_.ghosted(DmdaGrid::kX); ++i) {
      const long kg = k - oz, ig = i - ox;
      p(k, 0, i) = kg < 0 || kg >= nz_ || ig < 0 || ig >= nx_ ? 0.0 : data_[kg * nx_ + ig];
    }
  Kokkos::deep_copy(phi, p);
  return {true, 0, 0};
}

void FftPoissonSolver::save_state(io::Hdf5Checkpoint& checkpoint) const {
  checkpoint.scalars["fft_solves"] = static_cast<double>(solves_);
}

void FftPoissonSolver::load_state(const io::Hdf5Checkpoint& checkpoint) {
  solves_ = static_cast<long>(checkpoint.scalar("fft_solves"));
}

}  // namespace surrox::solvers
