#include "solvers/md/neighbor_list.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/error.hpp"

namespace surrox::solvers::md {

void NeighborList::setup(const Box& box, double cutoff, double skin, bool half, MPI_Comm comm) {
  box_ = box;
  cutoff_ = cutoff;
  skin_ = skin;
  cutneigh_ = cutoff + skin;
  half_ = half;
  comm_ = comm;
  MPI_Comm_rank(comm, &rank_);
  MPI_Comm_size(comm, &nprocs_);
  int dims[3] = {0, 0, 0};
  MPI_Dims_create(nprocs_, 3, dims);
  // Rank r sits at (r mod px, r / px mod py, r / (px py)) of the grid.
  auto rank_of = [&](int cx, int cy, int cz) { return (cz * dims[1] + cy) * dims[0] + cx; };
  for (int d = 0; d < 3; ++d) dims_[d] = dims[d];
  coords_ = {rank_ % dims[0], rank_ / dims[0] % dims[1], rank_ / (dims[0] * dims[1])};
  for (int d = 0; d < 3; ++d) {
    auto lo = coords_, hi = coords_;
    lo[d] = (coords_[d] + dims[d] - 1) % dims[d];
    hi[d] = (coords_[d] + 1) % dims[d];
    lower_[d] = rank_of(lo[0], lo[1], lo[2]);
    upper_[d] = rank_of(hi[0], hi[1], hi[2]);
  }
  for (int d = 0; d < 3; ++d) {
    const double L = box.length(d);
    if (L < cutneigh_)
      throw InputError(fmt::format(
          "the box is {:.6g} long in {}, shorter than cutoff + skin = {:.6g}: there are "
          "not enough periodic images (replicate the system or reduce the cutoff/skin)",
          L, char('x' + d), cutneigh_));
    // Cells of about half the neighbour cutoff (LAMMPS's default), a whole number per period.
    nbin_[d] = std::max<long>(1, static_cast<long>(L / (0.5 * cutneigh_)));
    bininv_[d] = static_cast<double>(nbin_[d]) / L;
    margin_[d] = static_cast<long>(std::ceil(cutneigh_ * bininv_[d]));
    cell_lo_[d] = coords_[d] * nbin_[d] / dims_[d];
    cell_hi_[d] = (coords_[d] + 1) * nbin_[d] / dims_[d];
    sublo_[d] = coords_[d] == 0 ? box.lo[d] : box.lo[d] + cell_lo_[d] / bininv_[d];
    subhi_[d] = coords_[d] == dims_[d] - 1 ? box.hi[d] : box.lo[d] + cell_hi_[d] / bininv_[d];
    if (dims_[d] > 1 && (cell_hi_[d] - cell_lo_[d]) / bininv_[d] < cutneigh_)
      throw InputError(fmt::format(
          "{} MPI ranks along {} leave blocks of {:.6g}, thinner than cutoff + skin = {:.6g}: "
          "use fewer ranks or a larger system",
          dims_[d], char('x' + d), (cell_hi_[d] - cell_lo_[d]) / bininv_[d], cutneigh_));
    grid_[d] = cell_hi_[d] - cell_lo_[d] + 2 * margin_[d];
  }
  // The stencil: cells whose nearest points are closer than the neighbour cutoff. A half list
  // keeps i's own cell first, then the upper half (z > 0, or z = 0 and y > 0, or z = y = 0 and x >
  // 0).
  std::vector<int> offsets{0};
  auto gap = [&](long k, int d) { return k == 0 ? 0.0 : (std::abs(k) - 1) / bininv_[d]; };
  for (long k = -margin_[2]; k <= margin_[2]; ++k)
    for (long j = -margin_[1]; j <= margin_[1]; ++j)
      for (long i = -margin_[0]; i <= margin_[0]; ++i) {
        if (i == 0 && j == 0 && k == 0) continue;
        const double g = gap(i, 0) * gap(i, 0) + gap(j, 1) * gap(j, 1) + gap(k, 2) * gap(k, 2);
        if (g >= cutneigh_ * cutneigh_) continue;
        const bool upper = k > 0 || (k == 0 && j > 0) || (k == 0 && j == 0 && i > 0);
        if (half && !upper) continue;
        offsets.push_back(static_cast<int>((k * grid_[1] + j) * grid_[0] + i));
      }
  stencil_ = IntView("NeighborList::stencil", offsets.size());
  auto h = Kokkos::create_mirror_view(stencil_);
  for (std::size_t n = 0; n < offsets.size(); ++n) h(n) = offsets[n];
  Kokkos::deep_copy(stencil_, h);
  builds_ = 0;
}

std::array<long, 3> NeighborList::cell_of(const double* x) const {
  std::array<long, 3> c{};
  for (int d = 0; d < 3; ++d)
    c[d] =
        std::min(std::max(static_cast<long>((x[d] - box_.lo[d]) * bininv_[d]), 0L), nbin_[d] - 1);
  return c;
}

int NeighborList::owner_coord(int d, long cell) const {
  for (int k = 0; k < dims_[d]; ++k)
    if (cell < (k + 1) * nbin_[d] / dims_[d]) return k;
  return dims_[d] - 1;
}

bool NeighborList::owns(const std::array<double, 3>& x) const {
  const auto c = cell_of(x.data());
  for (int d = 0; d < 3; ++d)
    if (c[d] < cell_lo_[d] || c[d] >= cell_hi_[d]) return false;
  return true;
}

void NeighborList::exchange(std::vector<double>& send, int send_rank, int recv_rank,
                            std::vector<double>& recv, int tag) const {
  if (send_rank == rank_ && recv_rank == rank_) {
    recv = send;
    return;
  }
  long nsend = static_cast<long>(send.size()), nrecv = 0;
  MPI_Sendrecv(&nsend, 1, MPI_LONG, send_rank, tag, &nrecv, 1, MPI_LONG, recv_rank, tag, comm_,
               MPI_STATUS_IGNORE);
  recv.resize(nrecv);
  MPI_Sendrecv(send.data(), static_cast<int>(nsend), MPI_DOUBLE, send_rank, tag + 1, recv.data(),
               static_cast<int>(nrecv), MPI_DOUBLE, recv_rank, tag + 1, comm_, MPI_STATUS_IGNORE);
}

void NeighborList::build(System& s, long step) {
  // Wrap owned atoms into [lo, hi) and find the first lost (non-finite) one.
  const long nlocal = s.nlocal;
  auto x = s.x;
  auto image = s.image;
  const Box box = box_;
  long lost = nlocal;
  Kokkos::parallel_reduce(
      "NeighborList::wrap", nlocal,
      KOKKOS_LAMBDA(long i, long& first) {
        for (int d = 0; d < 3; ++d) {
          double xi = x(i, d);
          if (!(xi - xi == 0.0)) {  // NaN or infinite
            if (i < first) first = i;
            return;
          }
          const double L = box.hi[d] - box.lo[d];
          if (xi < box.lo[d] || xi >= box.hi[d]) {
            const double periods = floor((xi - box.lo[d]) / L);
            if (fabs(periods) > 1e6) {  // flew off: beyond any meaningful image
              if (i < first) first = i;
              return;
            }
            xi -= periods * L;
            image(i, d) += static_cast<int>(periods);
            if (xi >= box.hi[d]) {
              xi -= L;
              image(i, d) += 1;
            }
            if (xi < box.lo[d]) xi = box.lo[d];
            x(i, d) = xi;
          }
        }
      },
      Kokkos::Min<long>(lost));
  long tag = std::numeric_limits<long>::max();
  if (lost < nlocal) Kokkos::deep_copy(tag, Kokkos::subview(s.tag, lost));
  MPI_Allreduce(MPI_IN_PLACE, &tag, 1, MPI_LONG, MPI_MIN, comm_);
  if (tag != std::numeric_limits<long>::max()) {
    throw Error(
        fmt::format("atom {} was lost at step {}: it is no longer finite or flew a million box "
                    "lengths (a force blow-up, "
                    "e.g. from overlapping atoms or too large a time step)",
                    tag, step));
  }
  if (nprocs_ > 1) migrate(s);
  if (sort_every > 0 && (last_sort_ < 0 || step - last_sort_ >= sort_every)) {
    sort_atoms(s);
    last_sort_ = step;
  }
  make_ghosts(s);
  fill(s);
  // Migration may have changed the number of owned atoms.
  if (static_cast<long>(xhold_.extent(0)) != s.nlocal)
    xhold_ = Vec3View("NeighborList::xhold", s.nlocal);
  Kokkos::deep_copy(xhold_, Kokkos::subview(s.x, std::make_pair(0L, s.nlocal), Kokkos::ALL));
  ++builds_;
}

void NeighborList::sort_atoms(System& s) {
  const long nlocal = s.nlocal;
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.x);
  const long ncells = grid_[0] * grid_[1] * grid_[2];
  std::vector<long> cell(nlocal), start(ncells + 1, 0);
  for (long i = 0; i < nlocal; ++i) {
    const double xi[3] = {hx(i, 0), hx(i, 1), hx(i, 2)};
    const auto c = cell_of(xi);
    cell[i] =
        ((c[2] - cell_lo_[2]) * grid_[1] + (c[1] - cell_lo_[1])) * grid_[0] + (c[0] - cell_lo_[0]);
    ++start[cell[i] + 1];
  }
  for (long c = 0; c < ncells; ++c) start[c + 1] += start[c];
  IntView order("NeighborList::order", nlocal);
  auto ho = Kokkos::create_mirror_view(order);
  bool identity = true;
  for (long i = 0; i < nlocal; ++i) {
    const long to = start[cell[i]]++;
    ho(to) = static_cast<int>(i);
    identity = identity && to == i;
  }
  if (identity) return;
  Kokkos::deep_copy(order, ho);
  // Gather into copies, then copy back (the Views keep their allocations).
  auto permute3 = [&](auto view) {
    decltype(view) copy(Kokkos::view_alloc(Kokkos::WithoutInitializing, "NeighborList::sorted"),
                        view.extent(0));
    Kokkos::parallel_for(
        "NeighborList::sort", nlocal, KOKKOS_LAMBDA(long i) {
          for (int d = 0; d < 3; ++d) copy(i, d) = view(order(i), d);
        });
    Kokkos::parallel_for(
        "NeighborList::sort_back", nlocal, KOKKOS_LAMBDA(long i) {
          for (int d = 0; d < 3; ++d) view(i, d) = copy(i, d);
        });
  };
  auto permute1 = [&](auto view) {
    decltype(view) copy(Kokkos::view_alloc(Kokkos::WithoutInitializing, "NeighborList::sorted"),
                        view.extent(0));
    Kokkos::parallel_for(
        "NeighborList::sort", nlocal, KOKKOS_LAMBDA(long i) { copy(i) = view(order(i)); });
    Kokkos::parallel_for(
        "NeighborList::sort_back", nlocal, KOKKOS_LAMBDA(long i) { view(i) = copy(i); });
  };
  permute3(s.x);
  permute3(s.v);
  permute3(s.image);
  permute1(s.type);
  permute1(s.tag);
}

void NeighborList::migrate(System& s) {
  // Atoms that left this rank's block go to the neighbouring rank, one direction at a time.
  AtomData owned;
  {
    auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.x);
    auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.v);
    auto ht = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.type);
    auto hg = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.tag);
    auto hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.image);
    auto hm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.mass);
    owned.box = s.box;
    owned.ntypes = s.ntypes;
    owned.mass.assign(hm.data(), hm.data() + hm.extent(0));
    owned.has_velocities = true;
    for (long i = 0; i < s.nlocal; ++i) {
      owned.tag.push_back(hg(i));
      owned.type.push_back(ht(i));
      owned.x.push_back({hx(i, 0), hx(i, 1), hx(i, 2)});
      owned.v.push_back({hv(i, 0), hv(i, 1), hv(i, 2)});
      owned.image.push_back({hi(i, 0), hi(i, 1), hi(i, 2)});
    }
  }
  bool moved = false;
  for (int d = 0; d < 3; ++d) {
    if (dims_[d] == 1) continue;
    AtomData keep = owned;
    keep.tag.clear(), keep.type.clear(), keep.x.clear(), keep.v.clear(), keep.image.clear();
    std::vector<double> to_lower, to_upper, from;
    long far = std::numeric_limits<long>::max();
    for (long i = 0; i < owned.natoms(); ++i) {
      const int k = owner_coord(d, cell_of(owned.x[i].data())[d]);
      std::vector<double>* out = nullptr;
      if (k == coords_[d]) {
        keep.tag.push_back(owned.tag[i]);
        keep.type.push_back(owned.type[i]);
        keep.x.push_back(owned.x[i]);
        keep.v.push_back(owned.v[i]);
        keep.image.push_back(owned.image[i]);
        continue;
      }
      if (k == (coords_[d] + 1) % dims_[d])
        out = &to_upper;
      else if (k == (coords_[d] + dims_[d] - 1) % dims_[d])
        out = &to_lower;
      else {
        far = std::min(far, owned.tag[i]);
        continue;
      }
      const auto& x = owned.x[i];
      const auto& v = owned.v[i];
      const auto& m = owned.image[i];
      out->insert(out->end(),
                  {static_cast<double>(owned.tag[i]), static_cast<double>(owned.type[i]), x[0],
                   x[1], x[2], v[0], v[1], v[2], static_cast<double>(m[0]),
                   static_cast<double>(m[1]), static_cast<double>(m[2])});
    }
    MPI_Allreduce(MPI_IN_PLACE, &far, 1, MPI_LONG, MPI_MIN, comm_);
    if (far != std::numeric_limits<long>::max())
      throw Error(
          fmt::format("atom {} moved further than a neighbouring rank's block between list builds "
                      "(check the time step, or rebuild more often)",
                      far));
    moved = moved || !to_lower.empty() || !to_upper.empty();
    for (int dir = 0; dir < 2; ++dir) {
      exchange(dir == 0 ? to_lower : to_upper, dir == 0 ? lower_[d] : upper_[d],
               dir == 0 ? upper_[d] : lower_[d], from, 100 + 4 * d + 2 * dir);
      for (std::size_t a = 0; a + 10 < from.size(); a += 11) {
        keep.tag.push_back(static_cast<long>(from[a]));
        keep.type.push_back(static_cast<int>(from[a + 1]));
        keep.x.push_back({from[a + 2], from[a + 3], from[a + 4]});
        keep.v.push_back({from[a + 5], from[a + 6], from[a + 7]});
        keep.image.push_back({static_cast<int>(from[a + 8]), static_cast<int>(from[a + 9]),
                              static_cast<int>(from[a + 10])});
        moved = true;
      }
    }
    owned = std::move(keep);
  }
  if (moved) {
    const Units units = s.units;
    s.load(owned);
    s.units = units;
  }
}

void NeighborList::make_ghosts(System& s) {
  const long nlocal = s.nlocal;
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.x);
  auto ht = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.type);
  auto hg = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.tag);
  std::vector<std::array<double, 3>> pos(nlocal);
  std::vector<int> types(nlocal);
  std::vector<long> tags(nlocal);
  cell3_.resize(nlocal);
  for (long i = 0; i < nlocal; ++i) {
    pos[i] = {hx(i, 0), hx(i, 1), hx(i, 2)};
    types[i] = ht(i);
    tags[i] = hg(i);
    cell3_[i] = cell_of(pos[i].data());
  }
  swaps_.clear();
  std::vector<double> send, recv;
  for (int d = 0; d < 3; ++d) {
    const double L = box_.length(d);
    const std::size_t candidates = pos.size();  // atoms known before this direction
    for (int dir = 0; dir < 2; ++dir) {
      Swap swap;
      swap.dim = d;
      swap.send_rank = dir == 0 ? lower_[d] : upper_[d];
      swap.recv_rank = dir == 0 ? upper_[d] : lower_[d];
      // Across the box boundary the receiver sees the atoms one period away.
      swap.shift = dir == 0 ? (coords_[d] == 0 ? 1 : 0) : (coords_[d] == dims_[d] - 1 ? -1 : 0);
      std::vector<int> list;
      send.clear();
      for (std::size_t a = 0; a < candidates; ++a) {
        const bool near =
            dir == 0 ? pos[a][d] < sublo_[d] + cutneigh_ : pos[a][d] >= subhi_[d] - cutneigh_;
        if (!near) continue;
        list.push_back(static_cast<int>(a));
        auto p = pos[a];
        auto c = cell3_[a];
        p[d] += swap.shift * L;
        c[d] += swap.shift * nbin_[d];
        send.insert(send.end(), {p[0], p[1], p[2], static_cast<double>(tags[a]),
                                 static_cast<double>(types[a]), static_cast<double>(c[0]),
                                 static_cast<double>(c[1]), static_cast<double>(c[2])});
      }
      exchange(send, swap.send_rank, swap.recv_rank, recv, 200 + 4 * d + 2 * dir);
      swap.first = static_cast<long>(pos.size());
      swap.count = static_cast<long>(recv.size() / 8);
      for (std::size_t r = 0; r + 7 < recv.size(); r += 8) {
        pos.push_back({recv[r], recv[r + 1], recv[r + 2]});
        tags.push_back(static_cast<long>(recv[r + 3]));
        types.push_back(static_cast<int>(recv[r + 4]));
        cell3_.push_back({static_cast<long>(recv[r + 5]), static_cast<long>(recv[r + 6]),
                          static_cast<long>(recv[r + 7])});
      }
      swap.send_list = IntView("NeighborList::send_list", list.size());
      auto hl = Kokkos::create_mirror_view(swap.send_list);
      for (std::size_t k = 0; k < list.size(); ++k) hl(k) = list[k];
      Kokkos::deep_copy(swap.send_list, hl);
      swaps_.push_back(swap);
    }
  }
  s.nall = static_cast<long>(pos.size());
  s.reserve(s.nall);
  const long nghost = s.nall - nlocal;
  Vec3View gx("NeighborList::ghost_x", nghost);
  IntView gt("NeighborList::ghost_type", nghost);
  TagView gg("NeighborList::ghost_tag", nghost);
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
      "NeighborList::ghosts", nghost, KOKKOS_LAMBDA(long g) {
        for (int d = 0; d < 3; ++d) x(nlocal + g, d) = gx(g, d);
        type(nlocal + g) = gt(g);
        tag(nlocal + g) = gg(g);
      });
}

void NeighborList::update_ghosts(System& s) const {
  auto x = s.x;
  for (const Swap& swap : swaps_) {
    const double shift = swap.shift * box_.length(swap.dim);
    const int dim = swap.dim;
    auto list = swap.send_list;
    const long first = swap.first, nsend = static_cast<long>(list.extent(0));
    if (swap.send_rank == rank_ && swap.recv_rank == rank_) {
      Kokkos::parallel_for(
          "NeighborList::forward", nsend, KOKKOS_LAMBDA(long k) {
            const int j = list(k);
            for (int d = 0; d < 3; ++d) x(first + k, d) = x(j, d) + (d == dim ? shift : 0.0);
          });
      continue;
    }
    Kokkos::View<double* [3], Kokkos::LayoutRight> buffer("NeighborList::forward_buffer", nsend);
    Kokkos::parallel_for(
        "NeighborList::forward_pack", nsend, KOKKOS_LAMBDA(long k) {
          const int j = list(k);
          for (int d = 0; d < 3; ++d) buffer(k, d) = x(j, d) + (d == dim ? shift : 0.0);
        });
    auto hsend = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), buffer);
    Kokkos::View<double* [3], Kokkos::LayoutRight, Kokkos::HostSpace> hrecv(
        "NeighborList::forward_recv", swap.count);
    MPI_Sendrecv(hsend.data(), static_cast<int>(3 * nsend), MPI_DOUBLE, swap.send_rank, 300,
                 hrecv.data(), static_cast<int>(3 * swap.count), MPI_DOUBLE, swap.recv_rank, 300,
                 comm_, MPI_STATUS_IGNORE);
    auto recv = Kokkos::create_mirror_view_and_copy(typename Vec3View::memory_space(), hrecv);
    Kokkos::parallel_for(
        "NeighborList::forward_unpack", swap.count, KOKKOS_LAMBDA(long k) {
          for (int d = 0; d < 3; ++d) x(first + k, d) = recv(k, d);
        });
  }
}

void NeighborList::reverse_forces(System& s) const {
  auto f = s.f;
  for (auto it = swaps_.rbegin(); it != swaps_.rend(); ++it) {
    const Swap& swap = *it;
    auto list = swap.send_list;
    const long first = swap.first, nsend = static_cast<long>(list.extent(0));
    if (swap.send_rank == rank_ && swap.recv_rank == rank_) {
      // Each atom appears once in a swap's list: no two threads add to the same row.
      Kokkos::parallel_for(
          "NeighborList::reverse", nsend, KOKKOS_LAMBDA(long k) {
            const int j = list(k);
            for (int d = 0; d < 3; ++d) f(j, d) += f(first + k, d);
          });
      continue;
    }
    Kokkos::View<double* [3], Kokkos::LayoutRight> buffer("NeighborList::reverse_buffer",
                                                          swap.count);
    Kokkos::parallel_for(
        "NeighborList::reverse_pack", swap.count, KOKKOS_LAMBDA(long k) {
          for (int d = 0; d < 3; ++d) buffer(k, d) = f(first + k, d);
        });
    auto hsend = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), buffer);
    Kokkos::View<double* [3], Kokkos::LayoutRight, Kokkos::HostSpace> hrecv(
        "NeighborList::reverse_recv", nsend);
    MPI_Sendrecv(hsend.data(), static_cast<int>(3 * swap.count), MPI_DOUBLE, swap.recv_rank, 400,
                 hrecv.data(), static_cast<int>(3 * nsend), MPI_DOUBLE, swap.send_rank, 400, comm_,
                 MPI_STATUS_IGNORE);
    auto recv = Kokkos::create_mirror_view_and_copy(typename Vec3View::memory_space(), hrecv);
    Kokkos::parallel_for(
        "NeighborList::reverse_unpack", nsend, KOKKOS_LAMBDA(long k) {
          const int j = list(k);
          for (int d = 0; d < 3; ++d) f(j, d) += recv(k, d);
        });
  }
}

bool NeighborList::displaced_too_far(const System& s) const {
  auto x = s.x;
  auto hold = xhold_;
  const double limit = 0.25 * skin_ * skin_;
  double worst = 0;
  Kokkos::parallel_reduce(
      "NeighborList::displacement", s.nlocal,
      KOKKOS_LAMBDA(long i, double& m) {
        const double dx = x(i, 0) - hold(i, 0), dy = x(i, 1) - hold(i, 1),
                     dz = x(i, 2) - hold(i, 2);
        const double r2 = dx * dx + dy * dy + dz * dz;
        if (!(r2 <= m)) m = r2;  // NaN wins: a lost atom forces a build, which reports it
      },
      Kokkos::Max<double>(worst));
  int far = !(worst <= limit);
  MPI_Allreduce(MPI_IN_PLACE, &far, 1, MPI_INT, MPI_MAX, comm_);
  return far != 0;
}

void NeighborList::fill(const System& s) {
  const long nlocal = s.nlocal, nall = s.nall;
  // Cell of every atom in this rank's window of the global cell grid: owned atoms from their
  // wrapped position, ghosts from their source atom's cell shifted by whole periods (so
  // mirror pairs have exactly opposite cell offsets).
  const long ncells = grid_[0] * grid_[1] * grid_[2];
  std::vector<long> cell(nall);
  for (long a = 0; a < nall; ++a) {
    long c[3];
    bool inside = true;
    for (int d = 0; d < 3; ++d) {
      c[d] = cell3_[a][d] - cell_lo_[d] + margin_[d];
      inside = inside && c[d] >= 0 && c[d] < grid_[d];
    }
    cell[a] = inside ? (c[2] * grid_[1] + c[1]) * grid_[0] + c[0]
                     : -1;  // too far out to be anyone's neighbour
  }
  // Counting sort: atoms of each cell in index order (owned atoms before ghosts).
  bin_start_ = IntView("NeighborList::bin_start", ncells + 1);
  bin_atoms_ = IntView("NeighborList::bin_atoms", nall);
  atom_bin_ = IntView("NeighborList::atom_bin", nlocal);
  auto hs = Kokkos::create_mirror_view(bin_start_);
  auto ha = Kokkos::create_mirror_view(bin_atoms_);
  auto hb = Kokkos::create_mirror_view(atom_bin_);
  Kokkos::deep_copy(hs, 0);
  for (long a = 0; a < nall; ++a)
    if (cell[a] >= 0) ++hs(cell[a] + 1);
  for (long c = 0; c < ncells; ++c) hs(c + 1) += hs(c);
  std::vector<int> fill_at(hs.data(), hs.data() + ncells);
  for (long a = 0; a < nall; ++a)
    if (cell[a] >= 0) ha(fill_at[cell[a]]++) = static_cast<int>(a);
  for (long i = 0; i < nlocal; ++i) hb(i) = static_cast<int>(cell[i]);
  Kokkos::deep_copy(bin_start_, hs);
  Kokkos::deep_copy(bin_atoms_, ha);
  Kokkos::deep_copy(atom_bin_, hb);

  if (static_cast<long>(count_.extent(0)) != nlocal)
    count_ = IntView("NeighborList::count", nlocal);
  long maxn = static_cast<long>(neighbors_.extent(1));
  if (maxn == 0 || static_cast<long>(neighbors_.extent(0)) != nlocal) {
    const double density = static_cast<double>(nlocal) / box_.volume();
    const double sphere = 4.0 / 3.0 * M_PI * cutneigh_ * cutneigh_ * cutneigh_ * density;
    maxn = std::max(maxn, static_cast<long>((half_ ? 0.6 : 1.2) * sphere) + 16);
    neighbors_ = Neighbors("NeighborList::neighbors", nlocal, maxn);
  }
  auto x = s.x;
  auto start = bin_start_;
  auto atoms = bin_atoms_;
  auto bin = atom_bin_;
  auto stencil = stencil_;
  const int nstencil = static_cast<int>(stencil_.extent(0));
  const double cutsq = cutneigh_ * cutneigh_;
  const bool half = half_;
  for (;;) {
    auto neigh = neighbors_;
    auto count = count_;
    const int capacity = static_cast<int>(neighbors_.extent(1));
    int most = 0;
    Kokkos::parallel_reduce(
        "NeighborList::fill", nlocal,
        KOKKOS_LAMBDA(long i, int& m) {
          const int b = bin(i);
          const double xi = x(i, 0), yi = x(i, 1), zi = x(i, 2);
          int n = 0;
          for (int k = 0; k < nstencil; ++k) {
            const int bb = b + stencil(k);
            for (int a = start(bb); a < start(bb + 1); ++a) {
              const int j = atoms(a);
              if (bb == b && (half ? j <= i : j == i)) continue;
              const double dx = xi - x(j, 0), dy = yi - x(j, 1), dz = zi - x(j, 2);
              // Branch-free append: the slot is written always, kept only when j is inside.
              if (n < capacity) neigh(i, n) = j;
              n += dx * dx + dy * dy + dz * dz < cutsq ? 1 : 0;
            }
          }
          count(i) = n;
          if (n > m) m = n;
        },
        Kokkos::Max<int>(most));
    if (most <= capacity) break;
    neighbors_ = Neighbors("NeighborList::neighbors", nlocal, static_cast<long>(most * 1.2) + 8);
  }
}

}  // namespace surrox::solvers::md
