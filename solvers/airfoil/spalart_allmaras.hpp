#pragma once
// Pointwise Spalart–Allmaras model, as NASA's Turbulence Modeling Resource (TMR,
// turbmodels.larc.nasa.gov/spalart.html) states it: "SA" (Spalart & Allmaras 1994 without the
// trip term, with f_t2) and "SA-neg" (Allmaras, Johnson & Spalart, ICCFD7-1902, 2012), plus
// Sutherland's law. The transport equation of ν̃ (non-conservative form),
//   Dν̃/Dt = P − D + (1/σ)[∇·((ν + ν̃ f_n)∇ν̃) + c_b2 |∇ν̃|²],
// with ν_t = ν̃ f_v1 (0 where ν̃ < 0). turbulence.cpp discretises it; this file holds the terms
// that do not depend on the grid, so tests check them against hand-computed values.
//
// Cross-checked against SU2 v8.5 (SU2_CFD/include/numerics/turbulent/turb_sources.hpp,
// turb_diffusion.hpp): the same constants, the same f_v2 form 1 − χ/(1 + χ f_v1), the same S̃
// limiting (TMR note 1(c): c_v2 = 0.7, c_v3 = 0.9), r capped at 10, and the same SA-neg
// branch (P = c_b1(1 − c_t3)Ω ν̃, D = −c_w1 (ν̃/d)²).
#include <Kokkos_Core.hpp>
#include <cmath>

namespace surrox::solvers::airfoil::sa {

inline constexpr double kCb1 = 0.1355, kSigma = 2.0 / 3.0, kCb2 = 0.622, kKappa = 0.41;
inline constexpr double kCw2 = 0.3, kCw3 = 2.0, kCv1 = 7.1, kCt3 = 1.2, kCt4 = 0.5;
inline constexpr double kCw1 = kCb1 / (kKappa * kKappa) + (1 + kCb2) / kSigma;
inline constexpr double kCv2 = 0.7, kCv3 = 0.9;  // S̃ limiting (TMR note 1(c))
inline constexpr double kCn1 = 16.0;             // SA-neg diffusion
inline constexpr double kPrandtlTurbulent = 0.9;
// Sutherland's constant 110.4 K; TMR's cases run at T∞ = 540 °R = 300 K.
inline constexpr double kSutherlandKelvin = 110.4;

enum class Model : int { kSa = 0, kSaNeg = 1 };

// f_v1(χ), χ = ν̃/ν.
KOKKOS_INLINE_FUNCTION double fv1(double chi) {
  const double c3 = chi * chi * chi;
  return c3 / (c3 + kCv1 * kCv1 * kCv1);
}

// Eddy viscosity μ_t = ρ ν̃ f_v1 for ν̃ ≥ 0 and 0 for ν̃ < 0 (SA-neg; SA keeps ν̃ ≥ 0).
KOKKOS_INLINE_FUNCTION double eddy_viscosity(double rho, double nu_tilde, double nu) {
  return nu_tilde > 0 ? rho * nu_tilde * fv1(nu_tilde / nu) : 0.0;
}

// SA-neg's diffusion factor: ν + ν̃ f_n in the diffusion coefficient, f_n = 1 for ν̃ ≥ 0.
KOKKOS_INLINE_FUNCTION double diffusion_fn(double nu_tilde, double nu) {
  if (nu_tilde >= 0) return 1.0;
  const double c3 = nu_tilde * nu_tilde * nu_tilde / (nu * nu * nu);
  return (kCn1 + c3) / (kCn1 - c3);
}

// μ/μ∞ by Sutherland's law at T/T∞ = t, with s = S/T∞.
KOKKOS_INLINE_FUNCTION double sutherland(double t, double s) {
  return t * sqrt(t) * (1 + s) / (t + s);
}

// The source P − D per unit volume at one point and the implicit coefficient of its
// linearisation, max(0, −∂(P − D)/∂ν̃) with f_w, f_t2 and S̃ frozen (production explicit,
// destruction implicit, as in SU2 and CFL3D). `omega`: vorticity magnitude; `d`: wall distance.
struct Source {
  double production = 0, destruction = 0, implicit = 0;
  double s_tilde = 0, r = 0, fw = 0, ft2 = 0;  // for tests and diagnostics
};

KOKKOS_INLINE_FUNCTION Source source(double nu_tilde, double nu, double omega, double d,
                                     Model model) {
  Source s;
  const double d2 = d * d, k2 = kKappa * kKappa;
  if (nu_tilde < 0) {
    if (model != Model::kSaNeg) return s;  // SA clips ν̃ ≥ 0: no source below
    // SA-neg: P = c_b1 (1 − c_t3) Ω ν̃ and D = −c_w1 (ν̃/d)², both drive ν̃ back to zero.
    s.production = kCb1 * (1 - kCt3) * omega * nu_tilde;
    s.destruction = -kCw1 * nu_tilde * nu_tilde / d2;
    s.implicit = fmax(0.0, -(kCb1 * (1 - kCt3) * omega + 2 * kCw1 * nu_tilde / d2));
    s.s_tilde = omega;
    return s;
  }
  const double chi = nu_tilde / nu;
  const double f1 = fv1(chi);
  const double fv2 = 1 - chi / (1 + chi * f1);
  s.ft2 = kCt3 * exp(-kCt4 * chi * chi);
  const double s_bar = nu_tilde * fv2 / (k2 * d2);
  s.s_tilde = s_bar >= -kCv2 * omega ? omega + s_bar
                                     : omega + omega * (kCv2 * kCv2 * omega + kCv3 * s_bar) /
                                                   ((kCv3 - 2 * kCv2) * omega - s_bar);
  s.r = s.s_tilde > 0 ? fmin(nu_tilde / (s.s_tilde * k2 * d2), 10.0) : 10.0;
  const double g = s.r + kCw2 * (pow(s.r, 6) - s.r);
  const double c6 = pow(kCw3, 6);
  s.fw = g * pow((1 + c6) / (pow(g, 6) + c6), 1.0 / 6.0);
  s.production = kCb1 * (1 - s.ft2) * s.s_tilde * nu_tilde;
  const double dcoef = kCw1 * s.fw - kCb1 / k2 * s.ft2;
  s.destruction = dcoef * nu_tilde * nu_tilde / d2;
  s.implicit = fmax(0.0, 2 * dcoef * nu_tilde / d2 - kCb1 * (1 - s.ft2) * s.s_tilde);
  return s;
}

}  // namespace surrox::solvers::airfoil::sa
