#pragma once
// Pieces shared by the 2D and 3D Rayleigh–Bénard solvers: the one-pass reduction of the
// per-cell figures, the wall-normal grid, the reproducible initial perturbation, phase timing
// and the figure names.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "solvers/counter_hash.hpp"
#include "solvers/scoped_phase.hpp"

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
  return 2.0 * unit_interval(mix64(seed * kGoldenGamma + index + 0x632BE59BD9B4E019ull)) - 1.0;
}

// The wall-normal grid on [0, 1]: nz cells whose faces are
//   z_k = ½ (1 + tanh(γ (2k/nz − 1)) / tanh γ),   k = 0 … nz   (γ = stretching; γ = 0: k/nz),
// clustered symmetrically toward both walls; cell centres lie midway between their faces
// (second order for this smooth map). For large nz the first cell is about 2γ/sinh(2γ) of a
// uniform cell thick, the middle one γ/tanh γ. Indices outside [0, nz) are the ghost cells
// mirrored in the walls (a ghost is as thick as its mirror image).
class WallNormalGrid {
 public:
  WallNormalGrid(long nz, double stretching) : nz_(nz), uniform_(stretching == 0) {
    faces_.resize(static_cast<std::size_t>(nz) + 1);
    for (long k = 0; k <= nz; ++k) {
      const double xi = static_cast<double>(k) / static_cast<double>(nz);
      faces_[k] =
          uniform_ ? xi : 0.5 * (1 + std::tanh(stretching * (2 * xi - 1)) / std::tanh(stretching));
    }
    faces_[0] = 0, faces_[nz] = 1;
  }
  bool uniform() const { return uniform_; }
  long cells() const { return nz_; }
  double face(long k) const { return faces_[k]; }  // k = 0 … nz
  // Thickness of cell k (any k: ghosts mirror).
  double dz(long k) const {
    if (uniform_) return 1.0 / static_cast<double>(nz_);
    const long m = mirror(k);
    return faces_[m + 1] - faces_[m];
  }
  // Centre of cell k (any k: ghosts mirror).
  double zc(long k) const {
    if (k < 0) return -zc(-1 - k);
    if (k >= nz_) return 2.0 - zc(2 * nz_ - 1 - k);
    return uniform_ ? (static_cast<double>(k) + 0.5) / static_cast<double>(nz_)
                    : 0.5 * (faces_[k] + faces_[k + 1]);
  }
  // Distance between the centres of cells k − 1 and k: the height of the control volume of
  // face k (= ½(dz_{k−1} + dz_k); dz_0 at the bottom wall, dz_{nz−1} at the top).
  double dzc(long k) const {
    return uniform_ ? 1.0 / static_cast<double>(nz_) : 0.5 * (dz(k - 1) + dz(k));
  }
  double min_dz() const {
    double m = dz(0);
    for (long k = 1; k < nz_; ++k) m = std::min(m, dz(k));
    return m;
  }
  // Gershgorin bound of the z part of the discrete Laplacians (cell centres and z-faces):
  // max over k of 2/dz_k (1/dzc_k + 1/dzc_{k+1}) and 2/dzc_k (1/dz_{k−1} + 1/dz_k); 4/h² when
  // uniform.
  double diffusion_bound() const {
    double m = 0;
    for (long k = 0; k < nz_; ++k) {
      m = std::max(m, 2 / dz(k) * (1 / dzc(k) + 1 / dzc(k + 1)));
      if (k > 0) m = std::max(m, 2 / dzc(k) * (1 / dz(k - 1) + 1 / dz(k)));
    }
    return m;
  }

 private:
  long mirror(long k) const { return k < 0 ? -1 - k : k >= nz_ ? 2 * nz_ - 1 - k : k; }
  long nz_;
  bool uniform_;
  std::vector<double> faces_;
};

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
    throw Error(fmt::format("the time step collapsed at step {} (t = {:.6g}, dt = {:.3g})", next_step, time, dt));
  return {dt, lands};
}

// The figures every monitor() row and summary report, in this order.
inline constexpr const char* kFigures[] = {"nu_bottom",  "nu_top",        "nu_volume",
                                           "nu_kinetic", "nu_thermal",    "kinetic_energy",
                                           "u_rms",      "max_divergence"};

}  // namespace surrox::solvers::rayleigh_benard::detail
