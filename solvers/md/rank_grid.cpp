#include "solvers/md/rank_grid.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace surrox::solvers::md {

void RankGrid::setup(const Box& b, double cut, MPI_Comm c) {
  box = b;
  cutneigh = cut;
  comm = c;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &nprocs);
  int d3[3] = {0, 0, 0};
  MPI_Dims_create(nprocs, 3, d3);
  auto rank_of = [&](int cx, int cy, int cz) { return (cz * d3[1] + cy) * d3[0] + cx; };
  for (int d = 0; d < 3; ++d) dims[d] = d3[d];
  coords = {rank % d3[0], rank / d3[0] % d3[1], rank / (d3[0] * d3[1])};
  for (int d = 0; d < 3; ++d) {
    auto lo = coords, hi = coords;
    lo[d] = (coords[d] + d3[d] - 1) % d3[d];
    hi[d] = (coords[d] + 1) % d3[d];
    lower[d] = rank_of(lo[0], lo[1], lo[2]);
    upper[d] = rank_of(hi[0], hi[1], hi[2]);
  }
  for (int d = 0; d < 3; ++d) {
    const double L = box.length(d);
    if (L < cutneigh)
      throw InputError(fmt::format(
          "the box is {:.6g} long in {}, shorter than cutoff + skin = {:.6g}: there are "
          "not enough periodic images (replicate the system or reduce the cutoff/skin)",
          L, char('x' + d), cutneigh));
    // Cells of about half the neighbour cutoff (LAMMPS's default), a whole number per period.
    nbin[d] = std::max<long>(1, static_cast<long>(L / (0.5 * cutneigh)));
    bininv[d] = static_cast<double>(nbin[d]) / L;
    margin[d] = static_cast<long>(std::ceil(cutneigh * bininv[d]));
    cell_lo[d] = coords[d] * nbin[d] / dims[d];
    cell_hi[d] = (coords[d] + 1) * nbin[d] / dims[d];
    sublo[d] = coords[d] == 0 ? box.lo[d] : box.lo[d] + cell_lo[d] / bininv[d];
    subhi[d] = coords[d] == dims[d] - 1 ? box.hi[d] : box.lo[d] + cell_hi[d] / bininv[d];
    if (dims[d] > 1 && (cell_hi[d] - cell_lo[d]) / bininv[d] < cutneigh)
      throw InputError(fmt::format(
          "{} MPI ranks along {} leave blocks of {:.6g}, thinner than cutoff + skin = {:.6g}: "
          "use fewer ranks or a larger system",
          dims[d], char('x' + d), (cell_hi[d] - cell_lo[d]) / bininv[d], cutneigh));
    window[d] = cell_hi[d] - cell_lo[d] + 2 * margin[d];
  }
}

std::array<long, 3> RankGrid::cell_of(const double* x) const {
  std::array<long, 3> c{};
  for (int d = 0; d < 3; ++d)
    c[d] = std::min(std::max(static_cast<long>((x[d] - box.lo[d]) * bininv[d]), 0L), nbin[d] - 1);
  return c;
}

int RankGrid::owner_coord(int d, long cell) const {
  for (int k = 0; k < dims[d]; ++k)
    if (cell < (k + 1) * nbin[d] / dims[d]) return k;
  return dims[d] - 1;
}

bool RankGrid::owns(const std::array<double, 3>& x) const {
  const auto c = cell_of(x.data());
  for (int d = 0; d < 3; ++d)
    if (c[d] < cell_lo[d] || c[d] >= cell_hi[d]) return false;
  return true;
}

void RankGrid::exchange(std::vector<double>& send, int send_rank, int recv_rank,
                        std::vector<double>& recv, int tag) const {
  if (send_rank == rank && recv_rank == rank) {
    recv = send;
    return;
  }
  long nsend = static_cast<long>(send.size()), nrecv = 0;
  MPI_Sendrecv(&nsend, 1, MPI_LONG, send_rank, tag, &nrecv, 1, MPI_LONG, recv_rank, tag, comm,
               MPI_STATUS_IGNORE);
  recv.resize(nrecv);
  MPI_Sendrecv(send.data(), static_cast<int>(nsend), MPI_DOUBLE, send_rank, tag + 1, recv.data(),
               static_cast<int>(nrecv), MPI_DOUBLE, recv_rank, tag + 1, comm, MPI_STATUS_IGNORE);
}

}  // namespace surrox::solvers::md
