#include "solvers/airfoil/slab.hpp"

#include <fmt/format.h>

#include <string>
#include <utility>

#include "core/error.hpp"

namespace surrox::solvers::airfoil {
namespace {

// MPI tags of the ghost-row exchange: rows travelling to the lower and to the upper neighbour.
constexpr int kTagDown = 4101, kTagUp = 4102;

}  // namespace

SlabLayout layout_slabs(long ni, long nj, int ranks, long levels) {
  SlabLayout d;
  for (long gi = ni, gj = nj;
       d.grid_levels < levels && gi % 2 == 0 && gj % 2 == 0 && gi / 2 >= 8 && gj / 2 >= 4;
       gi /= 2, gj /= 2)
    ++d.grid_levels;
  for (d.levels = d.grid_levels;; --d.levels) {
    const long block = 1L << (d.levels - 1), blocks = nj / block;
    if (blocks / ranks >= 2) {
      d.rows.resize(static_cast<std::size_t>(ranks));
      for (int r = 0; r < ranks; ++r)
        d.rows[static_cast<std::size_t>(r)] =
            (blocks / ranks + (r < blocks % ranks ? 1 : 0)) * block;
      return d;
    }
    if (d.levels == 1)
      throw InputError(fmt::format(
          "airfoil solver: {} cells normal to the wall (solver.mesh.cells_normal) over {} MPI "
          "ranks leave a rank fewer than 2 rows of cells; each rank needs at least 2 (with "
          "multigrid, solver.multigrid_levels, 2 on its coarsest level, else fewer levels are "
          "used): run on at most {} ranks or use more cells_normal",
          nj, ranks, nj / 2));
  }
}

Slab::Slab(MPI_Comm comm, std::vector<long> rows, long ni)
    : comm_(comm), ni_(ni), rows_(std::move(rows)) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &ranks_);
  for (int r = 0; r < rank_; ++r) j0_ += rows_[static_cast<std::size_t>(r)];
  for (const long n : rows_) nj_ += n;
  nl_ = rows_[static_cast<std::size_t>(rank_)];
}

Slab Slab::coarsened() const {
  std::vector<long> coarse_rows(rows_.size());
  for (std::size_t r = 0; r < rows_.size(); ++r) coarse_rows[r] = rows_[r] / 2;
  return Slab(comm_, coarse_rows, ni_ / 2);
}

void Slab::sum_over_ranks(double* values, int n) const {
  if (ranks_ == 1) return;
  std::vector<double> all(static_cast<std::size_t>(n * ranks_));
  MPI_Allgather(values, n, MPI_DOUBLE, all.data(), n, MPI_DOUBLE, comm_);
  for (int k = 0; k < n; ++k) {
    double sum = 0;
    for (int r = 0; r < ranks_; ++r) sum += all[static_cast<std::size_t>(r * n + k)];
    values[k] = sum;
  }
}

std::array<HostMatrix, 4> Slab::gather(const Array3& a, long first, const char* label) const {
  auto local = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(a, Kokkos::ALL, Rows(first, first + nl_), Kokkos::ALL));
  std::vector<double> mine(static_cast<std::size_t>(4 * nl_ * ni_));
  for (int k = 0; k < 4; ++k)
    for (long j = 0; j < nl_; ++j)
      for (long i = 0; i < ni_; ++i)
        mine[static_cast<std::size_t>((k * nl_ + j) * ni_ + i)] = local(k, j, i);
  std::vector<double> all;
  const double* from = mine.data();
  if (ranks_ > 1) {
    std::vector<int> counts(rows_.size()), offsets(rows_.size());
    for (std::size_t r = 0, offset = 0; r < rows_.size(); ++r) {
      counts[r] = static_cast<int>(4 * rows_[r] * ni_);
      offsets[r] = static_cast<int>(offset);
      offset += static_cast<std::size_t>(counts[r]);
    }
    all.resize(static_cast<std::size_t>(4 * nj_ * ni_));
    MPI_Allgatherv(mine.data(), counts[static_cast<std::size_t>(rank_)], MPI_DOUBLE, all.data(),
                   counts.data(), offsets.data(), MPI_DOUBLE, comm_);
    from = all.data();
  }
  std::array<HostMatrix, 4> out;
  for (int k = 0; k < 4; ++k) out[k] = HostMatrix(std::string(label), ni_, nj_);
  long j0 = 0;
  for (const long rows : rows_) {
    for (int k = 0; k < 4; ++k)
      for (long j = 0; j < rows; ++j)
        for (long i = 0; i < ni_; ++i) out[k](i, j0 + j) = from[(k * rows + j) * ni_ + i];
    from += 4 * rows * ni_;
    j0 += rows;
  }
  return out;
}

GhostRows::GhostRows(const Slab& slab, long ghosts, int components)
    : comm_(slab.comm()), rank_(slab.rank()), ranks_(slab.ranks()), ni_(slab.ni()) {
  if (ranks_ == 1) return;
  send_lo_ = Array3("GhostRows::send_lo", components, ghosts, ni_);
  send_hi_ = Array3("GhostRows::send_hi", components, ghosts, ni_);
  recv_lo_ = Array3("GhostRows::recv_lo", components, ghosts, ni_);
  recv_hi_ = Array3("GhostRows::recv_hi", components, ghosts, ni_);
  host_send_lo_ = Kokkos::create_mirror_view(send_lo_);
  host_send_hi_ = Kokkos::create_mirror_view(send_hi_);
  host_recv_lo_ = Kokkos::create_mirror_view(recv_lo_);
  host_recv_hi_ = Kokkos::create_mirror_view(recv_hi_);
}

void GhostRows::exchange(const Array3& a) const {
  if (ranks_ == 1) return;
  const long g = static_cast<long>(send_lo_.extent(1)), n = static_cast<long>(a.extent(1)) - 2 * g;
  const int count = static_cast<int>(send_lo_.extent(0) * g * ni_);
  const int lo = rank_ > 0 ? rank_ - 1 : MPI_PROC_NULL;
  const int hi = rank_ < ranks_ - 1 ? rank_ + 1 : MPI_PROC_NULL;
  const auto all = Kokkos::ALL;
  if (lo != MPI_PROC_NULL) {
    Kokkos::deep_copy(send_lo_, Kokkos::subview(a, all, Rows(g, 2 * g), all));
    Kokkos::deep_copy(host_send_lo_, send_lo_);
  }
  if (hi != MPI_PROC_NULL) {
    Kokkos::deep_copy(send_hi_, Kokkos::subview(a, all, Rows(n, n + g), all));
    Kokkos::deep_copy(host_send_hi_, send_hi_);
  }
  // My first rows go down and the upper neighbour's first rows come in; then the reverse.
  MPI_Sendrecv(host_send_lo_.data(), count, MPI_DOUBLE, lo, kTagDown, host_recv_hi_.data(), count,
               MPI_DOUBLE, hi, kTagDown, comm_, MPI_STATUS_IGNORE);
  MPI_Sendrecv(host_send_hi_.data(), count, MPI_DOUBLE, hi, kTagUp, host_recv_lo_.data(), count,
               MPI_DOUBLE, lo, kTagUp, comm_, MPI_STATUS_IGNORE);
  if (lo != MPI_PROC_NULL) {
    Kokkos::deep_copy(recv_lo_, host_recv_lo_);
    Kokkos::deep_copy(Kokkos::subview(a, all, Rows(0, g), all), recv_lo_);
  }
  if (hi != MPI_PROC_NULL) {
    Kokkos::deep_copy(recv_hi_, host_recv_hi_);
    Kokkos::deep_copy(Kokkos::subview(a, all, Rows(n + g, n + 2 * g), all), recv_hi_);
  }
}

}  // namespace surrox::solvers::airfoil
