#include "solvers/md/verlet_fill.hpp"

#include <cmath>

namespace surrox::solvers::md {

void VerletFill::setup(const RankGrid& grid, bool half) {
  half_ = half;
  const auto& w = grid.window;
  const auto& margin = grid.margin;
  // A half list keeps i's own cell first, then the upper half (z > 0, or z = 0 and y > 0, or
  // z = y = 0 and x > 0).
  std::vector<int> offsets{0};
  auto gap = [&](long k, int d) { return k == 0 ? 0.0 : (std::abs(k) - 1) / grid.bininv[d]; };
  for (long k = -margin[2]; k <= margin[2]; ++k)
    for (long j = -margin[1]; j <= margin[1]; ++j)
      for (long i = -margin[0]; i <= margin[0]; ++i) {
        if (i == 0 && j == 0 && k == 0) continue;
        const double g = gap(i, 0) * gap(i, 0) + gap(j, 1) * gap(j, 1) + gap(k, 2) * gap(k, 2);
        if (g >= grid.cutneigh * grid.cutneigh) continue;
        const bool upper = k > 0 || (k == 0 && j > 0) || (k == 0 && j == 0 && i > 0);
        if (half && !upper) continue;
        offsets.push_back(static_cast<int>((k * w[1] + j) * w[0] + i));
      }
  stencil_ = IntView("VerletFill::stencil", offsets.size());
  auto h = Kokkos::create_mirror_view(stencil_);
  for (std::size_t n = 0; n < offsets.size(); ++n) h(n) = offsets[n];
  Kokkos::deep_copy(stencil_, h);
}

void VerletFill::fill(const System& s, const RankGrid& grid,
                      const std::vector<std::array<long, 3>>& cells, NeighborIndices& neighbors,
                      IntView& count) {
  const long nlocal = s.nlocal, nall = s.nall;
  const auto& w = grid.window;
  // Cell of every atom in this rank's window of the global cell grid: owned atoms from their
  // wrapped position, ghosts from their source atom's cell shifted by whole periods (so
  // mirror pairs have exactly opposite cell offsets).
  const long ncells = w[0] * w[1] * w[2];
  std::vector<long> cell(nall);
  for (long a = 0; a < nall; ++a) {
    long c[3];
    bool inside = true;
    for (int d = 0; d < 3; ++d) {
      c[d] = cells[a][d] - grid.cell_lo[d] + grid.margin[d];
      inside = inside && c[d] >= 0 && c[d] < w[d];
    }
    cell[a] = inside ? (c[2] * w[1] + c[1]) * w[0] + c[0] : -1;  // too far out for any list
  }
  // Counting sort: atoms of each cell in index order (owned atoms before ghosts).
  bin_start_ = IntView("VerletFill::bin_start", ncells + 1);
  bin_atoms_ = IntView("VerletFill::bin_atoms", nall);
  atom_bin_ = IntView("VerletFill::atom_bin", nlocal);
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

  const double cutneigh = grid.cutneigh;
  if (static_cast<long>(count.extent(0)) != nlocal) count = IntView("NeighborList::count", nlocal);
  long maxn = static_cast<long>(neighbors.extent(1));
  if (maxn == 0 || static_cast<long>(neighbors.extent(0)) != nlocal) {
    const double density = static_cast<double>(nlocal) / grid.box.volume();
    const double sphere = 4.0 / 3.0 * M_PI * cutneigh * cutneigh * cutneigh * density;
    maxn = std::max(maxn, static_cast<long>((half_ ? 0.6 : 1.2) * sphere) + 16);
    neighbors = NeighborIndices("NeighborList::neighbors", nlocal, maxn);
  }
  auto x = s.x;
  auto start = bin_start_;
  auto atoms = bin_atoms_;
  auto bin = atom_bin_;
  auto stencil = stencil_;
  const int nstencil = static_cast<int>(stencil_.extent(0));
  const double cutsq = cutneigh * cutneigh;
  const bool half = half_;
  for (;;) {
    auto neigh = neighbors;
    auto n_of = count;
    const int capacity = static_cast<int>(neighbors.extent(1));
    int most = 0;
    Kokkos::parallel_reduce(
        "VerletFill::fill", nlocal,
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
          n_of(i) = n;
          if (n > m) m = n;
        },
        Kokkos::Max<int>(most));
    if (most <= capacity) break;
    neighbors =
        NeighborIndices("NeighborList::neighbors", nlocal, static_cast<long>(most * 1.2) + 8);
  }
}

}  // namespace surrox::solvers::md
