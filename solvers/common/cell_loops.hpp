#pragma once
// Kokkos loops over a box of cells of a (z, y, x) grid field, written once for 2D and 3D: the
// body is always body(k, j, i[, value]). In 2D (ny = 1) the loop is a Rank<2> range over (z, x)
// with j fixed, so a 2D field is visited, and a reduction summed, in the same order as by a
// plain 2D loop; in 3D it is a Rank<3> range.
#include <Kokkos_Core.hpp>
#include <utility>

namespace surrox::solvers {

// Half-open index bounds [lo, hi) per axis, in the order (z, y, x) of the field's indices.
struct CellBox {
  long lo[3];
  long hi[3];
};

template <int dim, class Body>
void for_each_cell(const char* label, const CellBox& box, const Body& body) {
  static_assert(dim == 2 || dim == 3);
  if constexpr (dim == 2) {
    const long j = box.lo[1];
    Kokkos::parallel_for(
        label,
        Kokkos::MDRangePolicy<Kokkos::Rank<2>>({box.lo[0], box.lo[2]}, {box.hi[0], box.hi[2]}),
        KOKKOS_LAMBDA(long k, long i) { body(k, j, i); });
  } else {
    Kokkos::parallel_for(label,
                         Kokkos::MDRangePolicy<Kokkos::Rank<3>>({box.lo[0], box.lo[1], box.lo[2]},
                                                                {box.hi[0], box.hi[1], box.hi[2]}),
                         body);
  }
}

// A reduction of body(k, j, i, Value&) into result (a Value to sum into, or a Kokkos reducer).
template <int dim, class Value, class Body, class Result>
void reduce_cells(const char* label, const CellBox& box, const Body& body, Result&& result) {
  static_assert(dim == 2 || dim == 3);
  if constexpr (dim == 2) {
    const long j = box.lo[1];
    Kokkos::parallel_reduce(
        label,
        Kokkos::MDRangePolicy<Kokkos::Rank<2>>({box.lo[0], box.lo[2]}, {box.hi[0], box.hi[2]}),
        KOKKOS_LAMBDA(long k, long i, Value& value) { body(k, j, i, value); },
        std::forward<Result>(result));
  } else {
    Kokkos::parallel_reduce(
        label,
        Kokkos::MDRangePolicy<Kokkos::Rank<3>>({box.lo[0], box.lo[1], box.lo[2]},
                                               {box.hi[0], box.hi[1], box.hi[2]}),
        KOKKOS_LAMBDA(long k, long j, long i, Value& value) { body(k, j, i, value); },
        std::forward<Result>(result));
  }
}

}  // namespace surrox::solvers
