#include "solvers/md/atom_sort.hpp"

#include <vector>

namespace surrox::solvers::md {

void sort_by_cell(System& s, const RankGrid& grid) {
  const long nlocal = s.nlocal;
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.x);
  const auto& w = grid.window;
  const auto& lo = grid.cell_lo;
  const long ncells = w[0] * w[1] * w[2];
  std::vector<long> cell(nlocal), start(ncells + 1, 0);
  for (long i = 0; i < nlocal; ++i) {
    const double xi[3] = {hx(i, 0), hx(i, 1), hx(i, 2)};
    const auto c = grid.cell_of(xi);
    cell[i] = ((c[2] - lo[2]) * w[1] + (c[1] - lo[1])) * w[0] + (c[0] - lo[0]);
    ++start[cell[i] + 1];
  }
  for (long c = 0; c < ncells; ++c) start[c + 1] += start[c];
  IntView order("sort_by_cell::order", nlocal);
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
    decltype(view) copy(Kokkos::view_alloc(Kokkos::WithoutInitializing, "sort_by_cell::copy"),
                        view.extent(0));
    Kokkos::parallel_for(
        "sort_by_cell::gather", nlocal, KOKKOS_LAMBDA(long i) {
          for (int d = 0; d < 3; ++d) copy(i, d) = view(order(i), d);
        });
    Kokkos::parallel_for(
        "sort_by_cell::copy_back", nlocal, KOKKOS_LAMBDA(long i) {
          for (int d = 0; d < 3; ++d) view(i, d) = copy(i, d);
        });
  };
  auto permute1 = [&](auto view) {
    decltype(view) copy(Kokkos::view_alloc(Kokkos::WithoutInitializing, "sort_by_cell::copy"),
                        view.extent(0));
    Kokkos::parallel_for(
        "sort_by_cell::gather", nlocal, KOKKOS_LAMBDA(long i) { copy(i) = view(order(i)); });
    Kokkos::parallel_for(
        "sort_by_cell::copy_back", nlocal, KOKKOS_LAMBDA(long i) { view(i) = copy(i); });
  };
  permute3(s.x);
  permute3(s.v);
  permute3(s.image);
  permute1(s.type);
  permute1(s.tag);
}

}  // namespace surrox::solvers::md
