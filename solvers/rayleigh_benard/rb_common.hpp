#pragma once
// Pieces of the Rayleigh–Bénard solver: the reproducible initial perturbation, the landing of
// steps on output times, phase timing and the figure names.
#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "solvers/common/sums.hpp"
#include "solvers/counter_hash.hpp"
#include "solvers/scoped_phase.hpp"

namespace surrox::solvers::rayleigh_benard::detail {

// A reproducible uniform number in [−1, 1) from (seed, global cell index): the same initial
// field on any number of ranks.
KOKKOS_INLINE_FUNCTION double hash_uniform(std::uint64_t seed, std::uint64_t index) {
  return 2.0 * unit_interval(mix64(seed * kGoldenGamma + index + 0x632BE59BD9B4E019ull)) - 1.0;
}

// The initial buoyancy perturbation as a function of the physical position, so that every
// grid and every decomposition starts from the same continuous field:
//   b'(x, y, z) = A M^−½ Σ a_lmn cos(2π l x/Lx + θ_lmn) cos(2π m y/Ly + φ_lmn) sin(nπz),
// over l = 0 … ⌊Lx/λ⌋, m = 0 … ⌊Ly/λ⌋ ((l, m) ≠ (0, 0)), n = 1 … 4, with a ∈ [−1, 1) and the
// phases in [0, 2π) drawn from the seed (M terms; 2D: Ly = 0, so m = 0 only). It vanishes at
// the walls; λ is the shortest horizontal wavelength.
class SmoothPerturbation {
 public:
  static constexpr int kVerticalModes = 4;
  SmoothPerturbation(std::uint64_t seed, double lx, double ly, double shortest_wavelength)
      : lx_(lx), ly_(ly) {
    const long l_max = std::max(1L, static_cast<long>(std::floor(lx / shortest_wavelength + 1e-9)));
    const long m_max =
        ly > 0 ? std::max(1L, static_cast<long>(std::floor(ly / shortest_wavelength + 1e-9))) : 0;
    std::vector<double> modes;
    std::uint64_t draw = 0;
    for (long l = 0; l <= l_max; ++l)
      for (long m = 0; m <= m_max; ++m) {
        if (l == 0 && m == 0) continue;
        for (int n = 1; n <= kVerticalModes; ++n) {
          modes.insert(modes.end(),
                       {static_cast<double>(l), static_cast<double>(m), static_cast<double>(n),
                        hash_uniform(seed, draw), M_PI * (1 + hash_uniform(seed, draw + 1)),
                        M_PI * (1 + hash_uniform(seed, draw + 2))});
          draw += 3;
        }
      }
    count_ = static_cast<long>(modes.size() / 6);
    modes_ = Kokkos::View<double* [6]>("RB::perturbation_modes", count_);
    auto host = Kokkos::create_mirror_view(modes_);
    for (long q = 0; q < count_; ++q)
      for (int c = 0; c < 6; ++c) host(q, c) = modes[6 * q + c];
    Kokkos::deep_copy(modes_, host);
    scale_ = 1 / std::sqrt(static_cast<double>(count_));
  }
  // The shape Σ/√M at (x, y, z) (multiply by the amplitude A).
  KOKKOS_INLINE_FUNCTION double operator()(double x, double y, double z) const {
    double sum = 0;
    for (long q = 0; q < count_; ++q) {
      const double fy = ly_ > 0 ? cos(2 * M_PI * modes_(q, 1) * y / ly_ + modes_(q, 5)) : 1.0;
      sum += modes_(q, 3) * cos(2 * M_PI * modes_(q, 0) * x / lx_ + modes_(q, 4)) * fy *
             sin(modes_(q, 2) * M_PI * z);
    }
    return sum * scale_;
  }
  long modes() const { return count_; }

 private:
  double lx_, ly_;
  long count_ = 0;
  double scale_ = 1;
  Kokkos::View<double* [6]> modes_;  // l, m, n, a, θ, φ
};

// The step to take from `time` with the stable step `dt`: it lands exactly on `target` (the end
// time or the driver's next output) and halves the step before it rather than leave a sliver.
// A step collapsing to round-off is a blow-up: Error naming the step.
struct LandedStep {
  double dt;
  bool lands;  // the step ends exactly on target
};
inline LandedStep land_step(double dt, double time, double target, long next_step) {
  bool lands = false;
  if (time + dt >= target * (1 - 1e-13)) {
    dt = target - time;
    lands = true;
  } else if (time + 2 * dt > target) {
    dt = 0.5 * (target - time);
  }
  if (!(dt > 1e-12 * std::max(1.0, time)))
    throw Error(fmt::format("the time step collapsed at step {} (t = {:.6g}, dt = {:.3g})",
                            next_step, time, dt));
  return {dt, lands};
}

// The figures every monitor() row and summary report, in this order.
inline constexpr const char* kFigures[] = {"nu_bottom",  "nu_top",        "nu_volume",
                                           "nu_kinetic", "nu_thermal",    "kinetic_energy",
                                           "u_rms",      "max_divergence"};

}  // namespace surrox::solvers::rayleigh_benard::detail
