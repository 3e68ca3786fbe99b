#pragma once
// Line-implicit smoothing in the wall-normal direction (Mavriplis; Jameson & Caughey): along
// every line i = const the pseudo-time step is solved exactly in j, a block-tridiagonal system
// of 4 × 4 blocks (block_tridiagonal.hpp), so the stiffness of the thin wall cells no longer
// limits the step; the coupling in i goes by symmetric Gauss–Seidel over the lines.
//
// The operator is LU-SGS's, with the j-direction linearised instead of lagged: per cell the
// scalar diagonal D = V/Δt + Σ_f (ω½λ_f + λ_v,f), per j-neighbour the block ½A(W_n)·S − (ω½λ_f +
// λ_v,f)I (A the Euler flux Jacobian, S towards the neighbour), and per i-neighbour LU-SGS's
// matrix-free ½ΔF·S − (ω½λ_f + λ_v,f)ΔU, with the neighbour's current ΔU on the right-hand side.
// On the wall row the ghost is the mirror of the cell, ΔU_g = MΔU (as lusgs' wall_mirror): the
// wall face adds (½A(W_g)·S_out − (ω½λ_w + λ_v,w)I) M to the first diagonal block. The far-field
// ghost stays frozen.
//
// Lines in i: `red_black: 0` (default) sweeps them one after the other, i = 0 … ni − 1 and back,
// like LU-SGS's two sweeps; `red_black: 1` solves the even lines, then the odd, then the even
// again, each colour in parallel (ni must be even on a periodic grid). `sweeps` repeats the
// symmetric sweep.
//
// Over MPI ranks (slabs of rows in j) every line is cut in pieces: the elimination runs over
// the ranks one after the other (each sends its last row's G_j to the next), and so does each
// line's forward substitution (g_j) up and back substitution (x_j) down, for the lines of one
// step of the sweep together. Every cell sees exactly the operands it sees on one rank, so N
// ranks reproduce the one-rank iterates bit for bit; the price is that the ranks wait for each
// other line by line.
#include <Kokkos_Core.hpp>

#include "solvers/airfoil/smoother.hpp"
#include "solvers/airfoil/views.hpp"

namespace surrox::solvers::airfoil {

class LineImplicitSmoother final : public Smoother {
 public:
  explicit LineImplicitSmoother(const FlowLevel& level);
  void smooth(FlowLevel& level, double cfl) override;

  // Lines i = first + stride · k, k < count, solved together.
  struct Lines {
    long first, stride, count;
  };

 private:
  void factorize(const FlowLevel& level, double cfl);
  void solve(const FlowLevel& level, Lines lines);
  // Rows [0, count) of `edge_send_` to `destination`, or into `edge_receive_` from `source`.
  void send(const FlowLevel& level, long count, int destination, int tag);
  void receive(const FlowLevel& level, long count, int source, int tag);

  int sweeps_ = 1;
  bool red_black_ = false;
  bool roe_ = false;  // the j-faces' dissipation: Roe's matrix instead of the spectral radius
  Array3 du_, g_;     // ΔU and g, (4, nl, ni)
  Kokkos::View<double***, Kokkos::LayoutRight> d_inverse_, lower_, gain_;  // (nl, ni, 16)
  // A line's value at the neighbour rank's edge row, per line of the step: G (16), g or x (4).
  Array2 edge_send_, edge_receive_;  // (ni, 16)
  Array2::HostMirror edge_host_;
};

}  // namespace surrox::solvers::airfoil
