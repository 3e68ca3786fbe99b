#include "solvers/md/ghost_exchange.hpp"

namespace surrox::solvers::md {

void GhostExchange::build(System& s, const RankGrid& grid) {
  box_ = grid.box;
  rank_ = grid.rank;
  comm_ = grid.comm;
  const long nlocal = s.nlocal;
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.x);
  auto ht = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.type);
  auto hg = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.tag);
  std::vector<std::array<double, 3>> pos(nlocal);
  std::vector<int> types(nlocal);
  std::vector<long> tags(nlocal);
  cells_.resize(nlocal);
  for (long i = 0; i < nlocal; ++i) {
    pos[i] = {hx(i, 0), hx(i, 1), hx(i, 2)};
    types[i] = ht(i);
    tags[i] = hg(i);
    cells_[i] = grid.cell_of(pos[i].data());
  }
  swaps_.clear();
  std::vector<double> send, recv;
  for (int d = 0; d < 3; ++d) {
    const double L = box_.length(d);
    const std::size_t candidates = pos.size();  // atoms known before this direction
    for (int dir = 0; dir < 2; ++dir) {
      Swap swap;
      swap.dim = d;
      swap.send_rank = dir == 0 ? grid.lower[d] : grid.upper[d];
      swap.recv_rank = dir == 0 ? grid.upper[d] : grid.lower[d];
      // Across the box boundary the receiver sees the atoms one period away.
      swap.shift =
          dir == 0 ? (grid.coords[d] == 0 ? 1 : 0) : (grid.coords[d] == grid.dims[d] - 1 ? -1 : 0);
      std::vector<int> list;
      send.clear();
      for (std::size_t a = 0; a < candidates; ++a) {
        const bool near = dir == 0 ? pos[a][d] < grid.sublo[d] + grid.cutneigh
                                   : pos[a][d] >= grid.subhi[d] - grid.cutneigh;
        if (!near) continue;
        list.push_back(static_cast<int>(a));
        auto p = pos[a];
        auto c = cells_[a];
        p[d] += swap.shift * L;
        c[d] += swap.shift * grid.nbin[d];
        send.insert(send.end(), {p[0], p[1], p[2], static_cast<double>(tags[a]),
                                 static_cast<double>(types[a]), static_cast<double>(c[0]),
                                 static_cast<double>(c[1]), static_cast<double>(c[2])});
      }
      grid.exchange(send, swap.send_rank, swap.recv_rank, recv, 200 + 4 * d + 2 * dir);
      swap.first = static_cast<long>(pos.size());
      swap.count = static_cast<long>(recv.size() / 8);
      for (std::size_t r = 0; r + 7 < recv.size(); r += 8) {
        pos.push_back({recv[r], recv[r + 1], recv[r + 2]});
        tags.push_back(static_cast<long>(recv[r + 3]));
        types.push_back(static_cast<int>(recv[r + 4]));
        cells_.push_back({static_cast<long>(recv[r + 5]), static_cast<long>(recv[r + 6]),
                          static_cast<long>(recv[r + 7])});
      }
      swap.send_list = IntView("GhostExchange::send_list", list.size());
      auto hl = Kokkos::create_mirror_view(swap.send_list);
      for (std::size_t k = 0; k < list.size(); ++k) hl(k) = list[k];
      Kokkos::deep_copy(swap.send_list, hl);
      swaps_.push_back(swap);
    }
  }
  s.nall = static_cast<long>(pos.size());
  s.reserve(s.nall);
  const long nghost = s.nall - nlocal;
  Vec3View gx("GhostExchange::x", nghost);
  IntView gt("GhostExchange::type", nghost);
  TagView gg("GhostExchange::tag", nghost);
  auto hgx = Kokkos::create_mirror_view(gx);
  auto hgt = Kokkos::create_mirror_view(gt);
  auto hgg = Kokkos::create_mirror_view(gg);
  for (long g = 0; g < nghost; ++g) {
    for (int d = 0; d < 3; ++d) hgx(g, d) = pos[nlocal + g][d];
    hgt(g) = types[nlocal + g];
    hgg(g) = tags[nlocal + g];
  }
  Kokkos::deep_copy(gx, hgx);
  Kokkos::deep_copy(gt, hgt);
  Kokkos::deep_copy(gg, hgg);
  auto x = s.x;
  auto type = s.type;
  auto tag = s.tag;
  Kokkos::parallel_for(
      "GhostExchange::build", nghost, KOKKOS_LAMBDA(long g) {
        for (int d = 0; d < 3; ++d) x(nlocal + g, d) = gx(g, d);
        type(nlocal + g) = gt(g);
        tag(nlocal + g) = gg(g);
      });
}

void GhostExchange::forward(System& s) const {
  auto x = s.x;
  for (const Swap& swap : swaps_) {
    const double shift = swap.shift * box_.length(swap.dim);
    const int dim = swap.dim;
    auto list = swap.send_list;
    const long first = swap.first, nsend = static_cast<long>(list.extent(0));
    if (swap.send_rank == rank_ && swap.recv_rank == rank_) {
      Kokkos::parallel_for(
          "GhostExchange::forward", nsend, KOKKOS_LAMBDA(long k) {
            const int j = list(k);
            for (int d = 0; d < 3; ++d) x(first + k, d) = x(j, d) + (d == dim ? shift : 0.0);
          });
      continue;
    }
    Kokkos::View<double* [3], Kokkos::LayoutRight> buffer("GhostExchange::forward_buffer", nsend);
    Kokkos::parallel_for(
        "GhostExchange::forward_pack", nsend, KOKKOS_LAMBDA(long k) {
          const int j = list(k);
          for (int d = 0; d < 3; ++d) buffer(k, d) = x(j, d) + (d == dim ? shift : 0.0);
        });
    auto hsend = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), buffer);
    Kokkos::View<double* [3], Kokkos::LayoutRight, Kokkos::HostSpace> hrecv(
        "GhostExchange::forward_recv", swap.count);
    MPI_Sendrecv(hsend.data(), static_cast<int>(3 * nsend), MPI_DOUBLE, swap.send_rank, 300,
                 hrecv.data(), static_cast<int>(3 * swap.count), MPI_DOUBLE, swap.recv_rank, 300,
                 comm_, MPI_STATUS_IGNORE);
    auto recv = Kokkos::create_mirror_view_and_copy(typename Vec3View::memory_space(), hrecv);
    Kokkos::parallel_for(
        "GhostExchange::forward_unpack", swap.count, KOKKOS_LAMBDA(long k) {
          for (int d = 0; d < 3; ++d) x(first + k, d) = recv(k, d);
        });
  }
}

void GhostExchange::reverse(Kokkos::View<double**, Kokkos::LayoutRight> values) const {
  using Rows = Kokkos::View<double**, Kokkos::LayoutRight>;
  const int ncols = static_cast<int>(values.extent(1));
  for (auto it = swaps_.rbegin(); it != swaps_.rend(); ++it) {
    const Swap& swap = *it;
    auto list = swap.send_list;
    const long first = swap.first, nsend = static_cast<long>(list.extent(0));
    if (swap.send_rank == rank_ && swap.recv_rank == rank_) {
      // Each atom appears once in a swap's list: no two threads add to the same row.
      Kokkos::parallel_for(
          "GhostExchange::reverse", nsend, KOKKOS_LAMBDA(long k) {
            const int j = list(k);
            for (int c = 0; c < ncols; ++c) values(j, c) += values(first + k, c);
          });
      continue;
    }
    Rows buffer("GhostExchange::reverse_buffer", swap.count, ncols);
    Kokkos::parallel_for(
        "GhostExchange::reverse_pack", swap.count, KOKKOS_LAMBDA(long k) {
          for (int c = 0; c < ncols; ++c) buffer(k, c) = values(first + k, c);
        });
    auto hsend = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), buffer);
    Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> hrecv(
        "GhostExchange::reverse_recv", nsend, ncols);
    MPI_Sendrecv(hsend.data(), static_cast<int>(ncols * swap.count), MPI_DOUBLE, swap.recv_rank,
                 400, hrecv.data(), static_cast<int>(ncols * nsend), MPI_DOUBLE, swap.send_rank,
                 400, comm_, MPI_STATUS_IGNORE);
    auto recv = Kokkos::create_mirror_view_and_copy(typename Rows::memory_space(), hrecv);
    Kokkos::parallel_for(
        "GhostExchange::reverse_unpack", nsend, KOKKOS_LAMBDA(long k) {
          const int j = list(k);
          for (int c = 0; c < ncols; ++c) values(j, c) += recv(k, c);
        });
  }
}

}  // namespace surrox::solvers::md
