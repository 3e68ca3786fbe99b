#pragma once
// Counter-based random numbers for solver kernels: a number is a pure function of a seed and
// integer keys (atom id and step, cell index), so a run draws the same numbers whatever the
// atom order, the rank count or a restart. The mixer is SplitMix64's finaliser (Steele, Lea
// and Flood, OOPSLA 2014), a bijection of 64-bit words.
#include <Kokkos_Macros.hpp>
#include <cstdint>

namespace surrox::solvers {

inline constexpr std::uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ull;

KOKKOS_INLINE_FUNCTION std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The top 53 bits of z as a double in [0, 1): every value a multiple of 2⁻⁵³.
KOKKOS_INLINE_FUNCTION double unit_interval(std::uint64_t z) {
  return static_cast<double>(z >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace surrox::solvers
