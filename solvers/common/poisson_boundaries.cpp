#include "solvers/common/dmda_grid.hpp"
#include "solvers/common/poisson_solver.hpp"

namespace surrox::solvers {

void fill_wall_ghosts(const DmdaGrid& grid, const PoissonBoundaries& sides, const Field3& phi) {
  using G = DmdaGrid;
  const long gz = grid.ghosted(G::kZ), gy = grid.ghosted(G::kY), gx = grid.ghosted(G::kX);
  if (sides.x == PoissonSide::kDirichlet) {
    const bool left = grid.start(G::kX) == 0;
    const bool right = grid.start(G::kX) + grid.owned(G::kX) == grid.cells(G::kX);
    const long first = grid.offset(G::kX), last = first + grid.owned(G::kX) - 1;
    Kokkos::parallel_for(
        "fill_wall_ghosts::x", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {gz, gy}),
        KOKKOS_LAMBDA(long k, long j) {
          if (left) phi(k, j, first - 1) = 0;
          if (right) phi(k, j, last + 1) = 0;
        });
  }
  const bool bottom = grid.start(G::kZ) == 0;
  const bool top = grid.start(G::kZ) + grid.owned(G::kZ) == grid.cells(G::kZ);
  const bool mirror = sides.z == PoissonSide::kNeumann;
  const long lo = grid.offset(G::kZ), hi = lo + grid.owned(G::kZ) - 1;
  Kokkos::parallel_for(
      "fill_wall_ghosts::z", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {gy, gx}),
      KOKKOS_LAMBDA(long j, long i) {
        if (bottom) phi(lo - 1, j, i) = mirror ? phi(lo, j, i) : 0.0;
        if (top) phi(hi + 1, j, i) = mirror ? phi(hi, j, i) : 0.0;
      });
}

}  // namespace surrox::solvers
