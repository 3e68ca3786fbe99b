#pragma once
// N sums in one parallel_reduce pass, added element by element in the order Kokkos joins (the
// airfoil residual norms and wall forces, Anderson's products, the Rayleigh–Bénard figures).
// Kokkos 3 joins reducers through volatile references, hence the volatile operator.
#include <Kokkos_Core.hpp>

namespace surrox::solvers {

template <int N>
struct SumN {
  double v[N];
  KOKKOS_INLINE_FUNCTION SumN() {
    for (int n = 0; n < N; ++n) v[n] = 0;
  }
  KOKKOS_INLINE_FUNCTION SumN& operator+=(const SumN& o) {
    for (int n = 0; n < N; ++n) v[n] += o.v[n];
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile SumN& o) volatile {
    for (int n = 0; n < N; ++n) v[n] += o.v[n];
  }
};

}  // namespace surrox::solvers
