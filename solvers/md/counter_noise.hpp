#pragma once
// Counter-based random numbers for the integrators: a draw is a function of (seed, atom id,
// step, component), so that thermostat and barostat noise does not depend on atom order, the
// number of ranks or restarts.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>

#include "solvers/counter_hash.hpp"

namespace surrox::solvers::md {

// A uniform number in [0, 1).
KOKKOS_INLINE_FUNCTION double hash_uniform(long seed, long tag, long step, int component) {
  std::uint64_t z = static_cast<std::uint64_t>(seed) * kGoldenGamma ^
                    static_cast<std::uint64_t>(tag) * 0xBF58476D1CE4E5B9ull ^
                    static_cast<std::uint64_t>(step) * 0x94D049BB133111EBull ^
                    static_cast<std::uint64_t>(component);
  for (int r = 0; r < 2; ++r) z = mix64(z + kGoldenGamma);
  return unit_interval(z);
}

// A standard normal number per (seed, step, component < 4) for a global degree of freedom (the
// barostat's): Box–Muller over two uniforms of SplitMix64's own sequence (mixed seed plus the
// draw's index times the golden gamma). Not hash_uniform with one fixed tag: consecutive steps of
// that stream are anticorrelated at lags of ~100 (block sums of 100–300 normals have 0.88–0.93
// of the variance), which a slow variable such as the volume integrates and shows as too small
// fluctuations (measured: −2.7 % in the volume's spread of an ideal gas, 3.5 standard errors).
inline double stream_gaussian(long seed, long step, int component) {
  const std::uint64_t base =
      mix64(static_cast<std::uint64_t>(seed)) +
      (static_cast<std::uint64_t>(step) * 8u + 2u * static_cast<std::uint64_t>(component) + 1u) *
          kGoldenGamma;
  const double u1 = 1.0 - unit_interval(mix64(base));  // (0, 1]
  const double u2 = unit_interval(mix64(base + kGoldenGamma));
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

}  // namespace surrox::solvers::md
