#pragma once
// Test-only O-grids for the airfoil solver, in the conventions of mesh/curvilinear_grid.hpp
// (node 0 at the trailing edge, i clockwise along the lower surface first, j outward, node ni =
// node 0). Analytic, so the tests do not depend on the grid generator:
// - polar_grid: a circle of radius ½ (chord 1), radii growing geometrically to `far` (square
//   cells when ni ≈ 2π nj / ln(2 far)); `wobble` adds a smooth non-orthogonal distortion that
//   vanishes on both boundaries (a curved grid for free-stream preservation).
// - joukowski_grid: the conformal image z = ζ + 1/ζ of a polar grid around the circle of centre
//   (cx, cy) through ζ = 1, scaled to chord 1 with the leading edge at the origin; exact
//   incompressible lift Cl = 8π (R/c) sin(α + β).
#include <cmath>
#include <complex>

#include "mesh/curvilinear_grid.hpp"

namespace surrox::solvers::airfoil::testing {

inline mesh::CurvilinearGrid polar_grid(long ni, long nj, double far, double wobble = 0) {
  mesh::CurvilinearGrid g;
  g.x = mesh::HostMatrix("x", ni + 1, nj + 1);
  g.y = mesh::HostMatrix("y", ni + 1, nj + 1);
  const double r0 = 0.5, growth = std::log(far / r0) / static_cast<double>(nj);
  for (long j = 0; j <= nj; ++j)
    for (long i = 0; i <= ni; ++i) {
      const double s = static_cast<double>(j) / static_cast<double>(nj);
      const double t = -2 * M_PI * static_cast<double>(i % ni) / static_cast<double>(ni);
      const double theta = t + wobble * std::sin(M_PI * s) * std::sin(3 * t);
      const double r = r0 * std::exp(growth * static_cast<double>(j)) *
                       (1 + wobble * std::sin(M_PI * s) * std::cos(2 * t));
      g.x(i, j) = r * std::cos(theta);
      g.y(i, j) = r * std::sin(theta);
    }
  return g;
}

struct JoukowskiCase {
  mesh::CurvilinearGrid grid;
  double radius_over_chord = 0;
  double beta = 0;
  // Exact incompressible lift coefficient at angle of attack alpha (radians).
  double lift(double alpha) const { return 8 * M_PI * radius_over_chord * std::sin(alpha + beta); }
};

inline JoukowskiCase joukowski_grid(long ni, long nj, double cx, double cy, double far_chords) {
  using C = std::complex<double>;
  const C mu(cx, cy);
  const double radius = std::abs(C(1, 0) - mu);
  const double beta = std::asin(cy / radius);
  auto map = [](C z) { return z + 1.0 / z; };
  // Leading edge: the surface point farthest from the trailing edge z = 2.
  double chord = 0;
  C le(0, 0);
  for (int n = 0; n < 20000; ++n) {
    const C z = map(mu + radius * std::polar(1.0, 2 * M_PI * n / 20000.0));
    if (std::abs(z - C(2, 0)) > chord) chord = std::abs(z - C(2, 0)), le = z;
  }
  JoukowskiCase out;
  out.radius_over_chord = radius / chord;
  out.beta = beta;
  mesh::CurvilinearGrid& g = out.grid;
  g.x = mesh::HostMatrix("x", ni + 1, nj + 1);
  g.y = mesh::HostMatrix("y", ni + 1, nj + 1);
  const double growth = std::log(far_chords * chord / radius) / static_cast<double>(nj);
  for (long j = 0; j <= nj; ++j)
    for (long i = 0; i <= ni; ++i) {
      const double theta = -beta - 2 * M_PI * static_cast<double>(i % ni) / static_cast<double>(ni);
      const C zeta =
          mu + radius * std::exp(growth * static_cast<double>(j)) * std::polar(1.0, theta);
      const C z = (map(zeta) - le) / chord;
      g.x(i, j) = z.real();
      g.y(i, j) = z.imag();
    }
  return out;
}

}  // namespace surrox::solvers::airfoil::testing
