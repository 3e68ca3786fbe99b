#pragma once
// The second-order convection of ν̃ at one face (turbulence.cpp), apart so tests check it on
// known profiles. Non-conservative upwind form, as the first-order Σ_f min(q_f, 0)(ν̃_n − ν̃_c):
// cell c's term of face f is q⁺(ν̃_L − ν̃_c) + q⁻(ν̃_R − ν̃_c), with ν̃_L, ν̃_R the MUSCL values
// of c and of its neighbour n at the face. With ν̃_L = ν̃_c and ν̃_R = ν̃_n it is the first-order
// term; summed over a cell in uniform flow it is q(ν̃_L(out) − ν̃_L(in)), the second-order
// upwind difference.
#include <Kokkos_Core.hpp>

#include "solvers/airfoil/flux.hpp"

namespace surrox::solvers::airfoil {

// `behind`, `c`, `n`, `beyond`: ν̃ along the grid line through the face (behind c, c, its
// neighbour n across the face, beyond n); q = ū_f·S_f with S_f pointing from c to n.
KOKKOS_INLINE_FUNCTION double muscl_convection(double q, double behind, double c, double n,
                                               double beyond, Limiter limiter, double eps) {
  const double left = c + 0.5 * limited_slope(limiter, c - behind, n - c, eps);
  const double right = n - 0.5 * limited_slope(limiter, n - c, beyond - n, eps);
  return fmax(q, 0.0) * (left - c) + fmin(q, 0.0) * (right - c);
}

}  // namespace surrox::solvers::airfoil
