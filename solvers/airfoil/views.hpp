#pragma once
// The View aliases and index helpers every airfoil kernel uses. Device arrays are indexed
// (j, i) or (variable, j, i) with i fastest, like VTK points, j local to the rank's slab; host
// matrices (i, j) over the whole grid, like the grid's nodes.
#include <Kokkos_Core.hpp>

#include "mesh/curvilinear_grid.hpp"
#include "solvers/common/sums.hpp"

namespace surrox::solvers::airfoil {

using Array2 = Kokkos::View<double**, Kokkos::LayoutRight>;   // (j, i)
using Array3 = Kokkos::View<double***, Kokkos::LayoutRight>;  // (variable, j, i)
using HostMatrix = mesh::HostMatrix;                          // (i, j), host
using Range2 = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
using Range1 = Kokkos::RangePolicy<>;
using Rows = Kokkos::pair<long, long>;

// The periodic index i of n cells around the airfoil, for i in [−n, 2n).
KOKKOS_INLINE_FUNCTION long wrap(long i, long n) { return i < 0 ? i + n : (i >= n ? i - n : i); }

}  // namespace surrox::solvers::airfoil
