#pragma once
// Pointwise algebra of the line-implicit smoother (line_implicit_smoother.hpp): 4 × 4 blocks,
// the Jacobian of the Euler flux, and the steps of the block Thomas algorithm for
//   L_j x_{j−1} + D_j x_j + C_j x_{j+1} = b_j,  j = 0 … n − 1,
// which the smoother runs along each wall-normal line (and over the slabs of several ranks, one
// step after the other), and solve_block_tridiagonal() strings together for a whole line.
//   elimination:   D'_j = D_j − L_j G_{j−1},  G_j = D'_j⁻¹ C_j  (store D'_j⁻¹, G_j)
//   forward:       g_j = D'_j⁻¹ (b_j − L_j g_{j−1})
//   back:          x_j = g_j − G_j x_{j+1}
#include <Kokkos_Core.hpp>
#include <cmath>
#include <vector>

#include "solvers/airfoil/flux.hpp"

namespace surrox::solvers::airfoil {

struct Block4 {
  double a[16];  // row major
  KOKKOS_INLINE_FUNCTION double& operator()(int r, int c) { return a[4 * r + c]; }
  KOKKOS_INLINE_FUNCTION double operator()(int r, int c) const { return a[4 * r + c]; }
};

KOKKOS_INLINE_FUNCTION Block4 scaled_identity(double d) {
  Block4 m;
  for (int n = 0; n < 16; ++n) m.a[n] = n % 5 == 0 ? d : 0;
  return m;
}

KOKKOS_INLINE_FUNCTION Block4 product(const Block4& a, const Block4& b) {
  Block4 m;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      double s = 0;
      for (int k = 0; k < 4; ++k) s += a(r, k) * b(k, c);
      m(r, c) = s;
    }
  return m;
}

KOKKOS_INLINE_FUNCTION State product(const Block4& a, const State& x) {
  State y;
  for (int r = 0; r < 4; ++r)
    y[r] = a(r, 0) * x[0] + a(r, 1) * x[1] + a(r, 2) * x[2] + a(r, 3) * x[3];
  return y;
}

// The inverse by Gauss–Jordan elimination with partial pivoting; false if `a` is singular.
KOKKOS_INLINE_FUNCTION bool invert(Block4 a, Block4& inverse) {
  inverse = scaled_identity(1);
  for (int c = 0; c < 4; ++c) {
    int pivot = c;
    for (int r = c + 1; r < 4; ++r)
      if (fabs(a(r, c)) > fabs(a(pivot, c))) pivot = r;
    if (!(fabs(a(pivot, c)) > 0)) return false;
    if (pivot != c)
      for (int k = 0; k < 4; ++k) {
        const double t = a(c, k), s = inverse(c, k);
        a(c, k) = a(pivot, k), a(pivot, k) = t;
        inverse(c, k) = inverse(pivot, k), inverse(pivot, k) = s;
      }
    const double scale = 1 / a(c, c);
    for (int k = 0; k < 4; ++k) a(c, k) *= scale, inverse(c, k) *= scale;
    for (int r = 0; r < 4; ++r) {
      if (r == c) continue;
      const double f = a(r, c);
      if (f == 0) continue;
      for (int k = 0; k < 4; ++k) a(r, k) -= f * a(c, k), inverse(r, k) -= f * inverse(c, k);
    }
  }
  return true;
}

// ∂(F(U)·S)/∂U of the Euler flux at the primitive state w = (ρ, u, v, p).
KOKKOS_INLINE_FUNCTION Block4 flux_jacobian(const State& w, double sx, double sy) {
  const double g1 = kGamma - 1, u = w[1], v = w[2];
  const double vn = u * sx + v * sy, q2 = u * u + v * v;
  const double h = kGamma / g1 * w[3] / w[0] + 0.5 * q2;
  const double phi = 0.5 * g1 * q2;
  Block4 a;
  a(0, 0) = 0, a(0, 1) = sx, a(0, 2) = sy, a(0, 3) = 0;
  a(1, 0) = phi * sx - u * vn, a(1, 1) = vn + u * sx - g1 * u * sx, a(1, 2) = u * sy - g1 * v * sx,
       a(1, 3) = g1 * sx;
  a(2, 0) = phi * sy - v * vn, a(2, 1) = v * sx - g1 * u * sy, a(2, 2) = vn + v * sy - g1 * v * sy,
       a(2, 3) = g1 * sy;
  a(3, 0) = (phi - h) * vn, a(3, 1) = h * sx - g1 * u * vn, a(3, 2) = h * sy - g1 * v * vn,
       a(3, 3) = kGamma * vn;
  return a;
}

// Roe's dissipation as a matrix: |Â| of the Roe average of wl and wr across the unit normal
// (nx, ny), with the Harten fixes of roe_flux() (flux.hpp), so that roe_flux = ½|S|(F_l + F_r −
// |Â|(U_r − U_l)) to first order in U_r − U_l. Columns: roe_flux's dissipation of the primitive
// differences that a unit conservative difference makes at the Roe state.
KOKKOS_INLINE_FUNCTION Block4 roe_dissipation(const State& wl, const State& wr, double nx,
                                              double ny, double entropy_fix, double linear_fix) {
  const double rl = sqrt(wl[0]), rr = sqrt(wr[0]), inv = 1 / (rl + rr);
  const double hl = kGamma / (kGamma - 1) * wl[3] / wl[0] + 0.5 * (wl[1] * wl[1] + wl[2] * wl[2]);
  const double hr = kGamma / (kGamma - 1) * wr[3] / wr[0] + 0.5 * (wr[1] * wr[1] + wr[2] * wr[2]);
  const double rho = rl * rr, u = (rl * wl[1] + rr * wr[1]) * inv,
               v = (rl * wl[2] + rr * wr[2]) * inv, h = (rl * hl + rr * hr) * inv;
  const double q2 = u * u + v * v, c2 = (kGamma - 1) * (h - 0.5 * q2), c = sqrt(c2);
  const double vn = u * nx + v * ny;
  double l1 = fabs(vn - c), l2 = fabs(vn), l3 = fabs(vn + c);
  const double delta = entropy_fix * c, delta2 = linear_fix * c;
  if (l1 < delta) l1 = 0.5 * (l1 * l1 + delta * delta) / delta;
  if (l3 < delta) l3 = 0.5 * (l3 * l3 + delta * delta) / delta;
  if (l2 < delta2) l2 = 0.5 * (l2 * l2 + delta2 * delta2) / delta2;
  Block4 m;
  for (int col = 0; col < 4; ++col) {
    const double e0 = col == 0, e1 = col == 1, e2 = col == 2, e3 = col == 3;
    const double d_rho = e0, d_u = (e1 - u * e0) / rho, d_v = (e2 - v * e0) / rho;
    const double d_p = (kGamma - 1) * (e3 + 0.5 * q2 * e0 - u * e1 - v * e2);
    const double d_vn = d_u * nx + d_v * ny;
    const double a1 = l1 * (d_p - rho * c * d_vn) / (2 * c2);
    const double a3 = l3 * (d_p + rho * c * d_vn) / (2 * c2);
    const double a2 = l2 * (d_rho - d_p / c2);
    const double a4 = l2 * rho;
    m(0, col) = a1 + a2 + a3;
    m(1, col) = a1 * (u - c * nx) + a2 * u + a3 * (u + c * nx) + a4 * (d_u - d_vn * nx);
    m(2, col) = a1 * (v - c * ny) + a2 * v + a3 * (v + c * ny) + a4 * (d_v - d_vn * ny);
    m(3, col) = a1 * (h - c * vn) + a2 * 0.5 * q2 + a3 * (h + c * vn) +
                a4 * (u * d_u + v * d_v - vn * d_vn);
  }
  return m;
}

// One elimination step: D'⁻¹ = (D − L G_prev)⁻¹ (without L where there is no row before).
KOKKOS_INLINE_FUNCTION bool eliminate(Block4 d, const Block4* lower, const Block4& gain_prev,
                                      Block4& d_inverse) {
  if (lower) {
    const Block4 lg = product(*lower, gain_prev);
    for (int n = 0; n < 16; ++n) d.a[n] -= lg.a[n];
  }
  return invert(d, d_inverse);
}

// One forward step: g = D'⁻¹ (b − L g_prev).
KOKKOS_INLINE_FUNCTION State forward_step(const Block4& d_inverse, State b, const Block4* lower,
                                          const State& g_prev) {
  if (lower) {
    const State lg = product(*lower, g_prev);
    for (int k = 0; k < 4; ++k) b[k] -= lg[k];
  }
  return product(d_inverse, b);
}

// One back step: x = g − G x_next.
KOKKOS_INLINE_FUNCTION State back_step(const State& g, const Block4& gain, const State& x_next) {
  const State gx = product(gain, x_next);
  State x;
  for (int k = 0; k < 4; ++k) x[k] = g[k] - gx[k];
  return x;
}

// A whole line on the host (lower[0] and upper[n − 1] unused): the steps above in order.
// Returns an empty vector if a pivot block is singular.
inline std::vector<State> solve_block_tridiagonal(const std::vector<Block4>& lower,
                                                  const std::vector<Block4>& diagonal,
                                                  const std::vector<Block4>& upper,
                                                  const std::vector<State>& rhs) {
  const std::size_t n = diagonal.size();
  std::vector<Block4> d_inverse(n), gain(n);
  std::vector<State> g(n), x(n);
  for (std::size_t j = 0; j < n; ++j) {
    if (!eliminate(diagonal[j], j > 0 ? &lower[j] : nullptr, j > 0 ? gain[j - 1] : gain[0],
                   d_inverse[j]))
      return {};
    gain[j] = j + 1 < n ? product(d_inverse[j], upper[j]) : scaled_identity(0);
    g[j] = forward_step(d_inverse[j], rhs[j], j > 0 ? &lower[j] : nullptr, j > 0 ? g[j - 1] : g[0]);
  }
  State next{{0, 0, 0, 0}};
  for (std::size_t j = n; j-- > 0;) next = x[j] = back_step(g[j], gain[j], next);
  return x;
}

}  // namespace surrox::solvers::airfoil
