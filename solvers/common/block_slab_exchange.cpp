#include "solvers/common/block_slab_exchange.hpp"

#include <algorithm>

namespace surrox::solvers {

BlockSlabExchange::BlockSlabExchange(const DmdaGrid& grid, long slab_start, long slab_rows)
    : grid_(grid), comm_(grid.comm()), nx_(grid.cells(DmdaGrid::kX)) {
  int ranks = 1;
  MPI_Comm_size(comm_, &ranks);
  MPI_Comm_rank(comm_, &rank_);
  const long mine[6] = {grid.start(DmdaGrid::kX),
                        grid.owned(DmdaGrid::kX),
                        grid.start(DmdaGrid::kZ),
                        grid.owned(DmdaGrid::kZ),
                        slab_start,
                        slab_rows};
  std::vector<long> all(6 * static_cast<std::size_t>(ranks));
  MPI_Allgather(mine, 6, MPI_LONG, all.data(), 6, MPI_LONG, comm_);
  for (int r = 0; r < ranks; ++r)
    parts_.push_back({all[6 * r], all[6 * r + 1], all[6 * r + 2], all[6 * r + 3], all[6 * r + 4],
                      all[6 * r + 5]});
  const Part& me = parts_[static_cast<std::size_t>(rank_)];
  block_counts_.resize(ranks), block_offsets_.resize(ranks);
  slab_counts_.resize(ranks), slab_offsets_.resize(ranks);
  int block_total = 0, slab_total = 0;
  for (int r = 0; r < ranks; ++r) {
    const auto [a, b] = shared_rows(me, parts_[static_cast<std::size_t>(r)]);
    block_counts_[r] = static_cast<int>((b - a) * me.xm);
    block_offsets_[r] = block_total;
    block_total += block_counts_[r];
    const Part& other = parts_[static_cast<std::size_t>(r)];
    const auto [c, d] = shared_rows(other, me);
    slab_counts_[r] = static_cast<int>((d - c) * other.xm);
    slab_offsets_[r] = slab_total;
    slab_total += slab_counts_[r];
  }
  send_.resize(static_cast<std::size_t>(block_total));
  receive_.resize(static_cast<std::size_t>(slab_total));
  block_.resize(static_cast<std::size_t>(me.xm * me.zm));
}

std::pair<long, long> BlockSlabExchange::shared_rows(const Part& from, const Part& to) {
  const long first = std::max(from.zs, to.slab_start);
  const long last = std::min(from.zs + from.zm, to.slab_start + to.slab_rows);
  return {first, std::max(first, last)};
}

void BlockSlabExchange::to_slabs(const Field3& owned, double* slab) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), owned);
  const double* block = host.data();  // (zm, 1, xm), LayoutRight: the block order
  const Part& me = parts_[static_cast<std::size_t>(rank_)];
  // Block rows are sent in slab order: rank r's share is rows [a, b) of this block.
  for (std::size_t r = 0; r < parts_.size(); ++r) {
    const auto [a, b] = shared_rows(me, parts_[r]);
    std::copy(block + (a - me.zs) * me.xm, block + (b - me.zs) * me.xm,
              send_.data() + block_offsets_[r]);
  }
  MPI_Alltoallv(send_.data(), block_counts_.data(), block_offsets_.data(), MPI_DOUBLE,
                receive_.data(), slab_counts_.data(), slab_offsets_.data(), MPI_DOUBLE, comm_);
  for (std::size_t r = 0; r < parts_.size(); ++r) {
    const Part& other = parts_[r];
    const auto [c, d] = shared_rows(other, me);
    const double* from = receive_.data() + slab_offsets_[r];
    for (long z = c; z < d; ++z, from += other.xm)
      std::copy(from, from + other.xm, slab + (z - me.slab_start) * nx_ + other.xs);
  }
}

void BlockSlabExchange::to_field(const double* slab, const Field3& ghosted) {
  const Part& me = parts_[static_cast<std::size_t>(rank_)];
  double* block = block_.data();
  for (std::size_t r = 0; r < parts_.size(); ++r) {
    const Part& other = parts_[r];
    const auto [c, d] = shared_rows(other, me);
    double* to = receive_.data() + slab_offsets_[r];
    for (long z = c; z < d; ++z, to += other.xm) {
      const double* row = slab + (z - me.slab_start) * nx_ + other.xs;
      std::copy(row, row + other.xm, to);
    }
  }
  MPI_Alltoallv(receive_.data(), slab_counts_.data(), slab_offsets_.data(), MPI_DOUBLE,
                send_.data(), block_counts_.data(), block_offsets_.data(), MPI_DOUBLE, comm_);
  for (std::size_t r = 0; r < parts_.size(); ++r) {
    const auto [a, b] = shared_rows(me, parts_[r]);
    std::copy(send_.data() + block_offsets_[r], send_.data() + block_offsets_[r] + (b - a) * me.xm,
              block + (a - me.zs) * me.xm);
  }
  auto p = Kokkos::create_mirror_view(ghosted);
  Kokkos::deep_copy(p, 0.0);
  const long ox = grid_.offset(DmdaGrid::kX), oz = grid_.offset(DmdaGrid::kZ);
  for (long k = 0; k < me.zm; ++k)
    for (long i = 0; i < me.xm; ++i) p(k + oz, 0, i + ox) = block[k * me.xm + i];
  Kokkos::deep_copy(ghosted, p);
  grid_.exchange(ghosted);
}

}  // namespace surrox::solvers
