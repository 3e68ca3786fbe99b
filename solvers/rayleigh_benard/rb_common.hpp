#pragma once
// Pieces shared by the 2D and 3D Rayleigh–Bénard solvers: the one-pass reduction of the
// per-cell figures, the reproducible initial noise, phase timing and the figure names.
#include <Kokkos_Core.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

namespace surrox::solvers::rayleigh_benard::detail {

// Sums of the per-cell figures in one pass (Kokkos 3 joins through volatile references).
struct Sums {
  static constexpr int kCount = 6;
  double v[kCount];
  KOKKOS_INLINE_FUNCTION Sums() {
    for (int n = 0; n < kCount; ++n) v[n] = 0;
  }
  KOKKOS_INLINE_FUNCTION Sums& operator+=(const Sums& o) {
    for (int n = 0; n < kCount; ++n) v[n] += o.v[n];
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile Sums& o) volatile {
    for (int n = 0; n < kCount; ++n) v[n] += o.v[n];
  }
};

// A reproducible uniform number in [−1, 1) from (seed, global cell index): the same initial
// field on any number of ranks.
KOKKOS_INLINE_FUNCTION double hash_uniform(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + index + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z = z ^ (z >> 31);
  return static_cast<double>(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

// Adds the wall time of a scope to sink[name], after a fence so that queued kernels count.
class ScopedPhase {
 public:
  ScopedPhase(std::map<std::string, double>& sink, const char* name)
      : sink_(sink), name_(name), start_(std::chrono::steady_clock::now()) {}
  ~ScopedPhase() {
    Kokkos::fence();
    sink_[name_] +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::map<std::string, double>& sink_;
  const char* name_;
  std::chrono::steady_clock::time_point start_;
};

// The figures every monitor() row and summary report, in this order.
inline constexpr const char* kFigures[] = {"nu_bottom",  "nu_top",         "nu_volume", "nu_kinetic",
                                           "nu_thermal", "kinetic_energy", "u_rms",     "max_divergence"};

}  // namespace surrox::solvers::rayleigh_benard::detail
