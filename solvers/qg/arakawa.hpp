#pragma once
// Arakawa's (1966) Jacobian J(a, b) = a_x b_y − a_y b_x on a uniform grid: the mean of the three
// second-order forms J⁺⁺, J⁺ˣ, Jˣ⁺, which conserves the discrete ∫a², ∫b² (energy and enstrophy
// when a = ψ, b = ω) and gives J(a, a) = 0 exactly, so no spurious cascade feeds the grid scale.
// Fields are (y, 1, x) Views (row k = y, column i = x) with one ghost layer; the nine-point
// stencil needs the corners.
#include <Kokkos_Core.hpp>

namespace surrox::solvers::qg {

template <class View>
KOKKOS_INLINE_FUNCTION double arakawa_jacobian(const View& a, const View& b, long k, long i,
                                               double inv_12hxhy) {
  const double j1 = (a(k, 0, i + 1) - a(k, 0, i - 1)) * (b(k + 1, 0, i) - b(k - 1, 0, i)) -
                    (a(k + 1, 0, i) - a(k - 1, 0, i)) * (b(k, 0, i + 1) - b(k, 0, i - 1));
  const double j2 = a(k, 0, i + 1) * (b(k + 1, 0, i + 1) - b(k - 1, 0, i + 1)) -
                    a(k, 0, i - 1) * (b(k + 1, 0, i - 1) - b(k - 1, 0, i - 1)) -
                    a(k + 1, 0, i) * (b(k + 1, 0, i + 1) - b(k + 1, 0, i - 1)) +
                    a(k - 1, 0, i) * (b(k - 1, 0, i + 1) - b(k - 1, 0, i - 1));
  const double j3 = b(k + 1, 0, i) * (a(k + 1, 0, i + 1) - a(k + 1, 0, i - 1)) -
                    b(k - 1, 0, i) * (a(k - 1, 0, i + 1) - a(k - 1, 0, i - 1)) -
                    b(k, 0, i + 1) * (a(k + 1, 0, i + 1) - a(k - 1, 0, i + 1)) +
                    b(k, 0, i - 1) * (a(k + 1, 0, i - 1) - a(k - 1, 0, i - 1));
  return (j1 + j2 + j3) * inv_12hxhy;
}

// The five-point Laplacian at node (k, i).
template <class View>
KOKKOS_INLINE_FUNCTION double five_point_laplacian(const View& f, long k, long i, double inv_hx2,
                                                   double inv_hy2) {
  return (f(k, 0, i + 1) - 2 * f(k, 0, i) + f(k, 0, i - 1)) * inv_hx2 +
         (f(k + 1, 0, i) - 2 * f(k, 0, i) + f(k - 1, 0, i)) * inv_hy2;
}

}  // namespace surrox::solvers::qg
