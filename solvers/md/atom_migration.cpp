#include "solvers/md/atom_migration.hpp"

#include <fmt/format.h>

#include <limits>

#include "core/error.hpp"
#include "solvers/md/atom_packing.hpp"

namespace surrox::solvers::md {

void wrap_atoms(System& s, const RankGrid& grid, long step) {
  const long nlocal = s.nlocal;
  auto x = s.x;
  auto image = s.image;
  const Box box = grid.box;
  long lost = nlocal;
  Kokkos::parallel_reduce(
      "md::wrap_atoms", nlocal,
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
  MPI_Allreduce(MPI_IN_PLACE, &tag, 1, MPI_LONG, MPI_MIN, grid.comm);
  if (tag != std::numeric_limits<long>::max()) {
    throw Error(
        fmt::format("atom {} was lost at step {}: it is no longer finite or flew a million box "
                    "lengths (a force blow-up, "
                    "e.g. from overlapping atoms or too large a time step)",
                    tag, step));
  }
}

void migrate_atoms(System& s, const RankGrid& grid) {
  AtomData owned = s.owned_atoms();
  bool moved = false;
  for (int d = 0; d < 3; ++d) {
    if (grid.dims[d] == 1) continue;
    AtomData keep = without_atoms(owned);
    std::vector<double> to_lower, to_upper, from;
    long far = std::numeric_limits<long>::max();
    for (long i = 0; i < owned.natoms(); ++i) {
      const int k = grid.owner_coord(d, grid.cell_of(owned.x[i].data())[d]);
      if (k == grid.coords[d]) {
        append_atom(owned, i, keep);
      } else if (k == (grid.coords[d] + 1) % grid.dims[d]) {
        pack_atom(owned, i, to_upper);
      } else if (k == (grid.coords[d] + grid.dims[d] - 1) % grid.dims[d]) {
        pack_atom(owned, i, to_lower);
      } else {
        far = std::min(far, owned.tag[i]);
      }
    }
    MPI_Allreduce(MPI_IN_PLACE, &far, 1, MPI_LONG, MPI_MIN, grid.comm);
    if (far != std::numeric_limits<long>::max())
      throw Error(
          fmt::format("atom {} moved further than a neighbouring rank's block between list builds "
                      "(check the time step, or rebuild more often)",
                      far));
    moved = moved || !to_lower.empty() || !to_upper.empty();
    for (int dir = 0; dir < 2; ++dir) {
      grid.exchange(dir == 0 ? to_lower : to_upper, dir == 0 ? grid.lower[d] : grid.upper[d],
                    dir == 0 ? grid.upper[d] : grid.lower[d], from, 100 + 4 * d + 2 * dir);
      for (std::size_t a = 0; a + kPackedAtom - 1 < from.size(); a += kPackedAtom) {
        unpack_atom(&from[a], keep);
        moved = true;
      }
    }
    owned = std::move(keep);
  }
  if (moved) s.load(owned);
}

}  // namespace surrox::solvers::md
