#pragma once
// The Spalart–Allmaras transport equation of ν̃ on one grid level (spalart_allmaras.hpp holds
// the pointwise model): its ghost rows, its residual and its implicit update.
//
// Discretisation (cell-centred, the mean flow's grid and local time steps):
// - convection u·∇ν̃ upwind in the non-conservative form (TMR's equation), with q_f = ū_f·S_f:
//   `turbulence.convection: first_order`, Σ_f min(q_f, 0)(ν̃_n − ν̃_c), or `second_order`, the
//   same with MUSCL face values of ν̃ limited by the mean flow's limiter
//   (turbulence_convection.hpp). First order keeps the operator an M-matrix, so ν̃ stays
//   positive without a limiter; second order is what Flow360's study of TMR's NACA 0012 found
//   needed for grid convergence (docs/validation/rans.md measures both). The implicit operator
//   is the first-order one in both (as SU2's with MUSCL_TURB).
// - diffusion (1/σ)[∇·((ν + ν̃)∇ν̃) + c_b2|∇ν̃|²] as (1/σ)Σ_f (ν_f + (1 + c_b2)ν̃_f f_n − c_b2 ν̃_c
//   f_n)∇ν̃·S_f (the identity ∇·(ν̃∇ν̃) = ν̃∇²ν̃ + |∇ν̃|², as SU2's CAvgGrad_TurbSA), the face
//   gradient from the two cells along the line of centroids, ∇ν̃·S ≈ (ν̃_n − ν̃_c)|S|²/(S·Δx);
// - sources at the cell centroid with the vorticity of the Green–Gauss cell gradient and the
//   wall distance of the mesh.
// Boundaries: ν̃ = 0 on a no-slip wall (ghost −ν̃), ν̃∞ = ratio·ν∞ where the far field flows
// in, ν̃ extrapolated where it flows out; symmetry mirrors ν̃.
//
// Coupling: loose. Each cycle the ν̃ residual is evaluated with the mean flow's residual (the
// same state, the same ghost rows and spectral radii), then the mean flow takes its smoothing
// step and multigrid cycle with ν̃ frozen, then ν̃ takes one implicit step. The coarse levels
// carry ν̃ restricted from the fine level, frozen, for their eddy viscosity. Why loose: the
// mean flow's four-variable state, LU-SGS, halos and checkpoint stay as they are (the Euler and
// laminar results bit for bit), SA's stiff source is treated implicitly on its own, and the
// model's time scales are the mean flow's, so lagging one by a cycle costs few cycles.
//
// Implicit step: (V/Δt + ∂R/∂ν̃) Δν̃ = −R with the Jacobian of the first-order convection
// and of the frozen-coefficient diffusion, the source linearised as in spalart_allmaras.hpp,
// by symmetric Gauss–Seidel over the hyperplanes i + j, pipelined over the ranks as LU-SGS is
// (N ranks take the one-rank sweeps; block Jacobi with RankCoupling::kBlockJacobi).
#include "solvers/airfoil/views.hpp"

namespace surrox::solvers::airfoil {

struct FlowLevel;

// Fills the ghost rows of level.nu_tilde at the physical ends of the slab and exchanges the
// rows between slabs (collective).
void fill_turbulence_rows(FlowLevel& level);

class TurbulenceSolver {
 public:
  explicit TurbulenceSolver(const FlowLevel& level);
  // The ν̃ residual of the level's current state (ghost rows filled, face spectral radii of the
  // mean flow's last residual) and the implicit operator of the step; the global L2 norm of R/V.
  void evaluate(FlowLevel& level, double cfl);
  // One implicit step ν̃ ← ν̃ + Δν̃ with the operator of the last evaluate(); SA clips ν̃ ≥ 0.
  // Error naming the cell when ν̃ turns non-finite.
  void smooth(FlowLevel& level);
  double absolute_residual() const { return absolute_residual_; }
  // R of the last evaluate(), (rows, ni) of the slab: for tests.
  const Array2& residual() const { return res_; }

 private:
  // Error (exit 1, on every rank) naming the first cell whose ν̃ is not finite.
  void check(const FlowLevel& level) const;
  Array2 res_, diag_, du_;
  Array3 off_;  // (4, nl, ni): coefficients of the neighbours i − 1, i + 1, j − 1, j + 1
  // Δν̃ of the neighbour ranks' edge rows (zero without a neighbour) and the host buffers.
  Kokkos::View<double*> edge_lo_, edge_hi_;
  Kokkos::View<double*>::HostMirror edge_host_;
  Kokkos::View<double*, Kokkos::HostSpace> send_host_;
  double absolute_residual_ = 0;
};

}  // namespace surrox::solvers::airfoil
