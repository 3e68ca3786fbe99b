#pragma once
// Line-implicit smoothing in the wall-normal direction (Mavriplis; Jameson & Caughey): along
// every line i = const the pseudo-time step is solved exactly in j, a block-tridiagonal system
// of 4 × 4 blocks (block_tridiagonal.hpp), so the stiffness of the thin wall cells no longer
// limits the step; the coupling in i goes by symmetric Gauss–Seidel over the lines, i = 0 …
// ni − 1 and back, like LU-SGS's two sweeps (`sweeps` repeats the pair).
//
// The operator is LU-SGS's with the j-direction linearised instead of lagged: per cell V/Δt and
// the i-faces' ω½λ_f + λ_v,f on the diagonal; per j-face a dissipation block B_f, added to the
// diagonal, and the neighbour's block ½A(W_n)·S − B_f (A the Euler flux Jacobian, S towards the
// neighbour); per i-neighbour LU-SGS's matrix-free ½ΔF·S − (ω½λ_f + λ_v,f)ΔU with the
// neighbour's current ΔU on the right-hand side. B_f is LU-SGS's (ω½λ_f + λ_v,f)I, or with
// `roe` ½|S||Â| of the residual's Roe flux with its Harten fixes (+ λ_v,f I): the spectral
// radius damps the entropy and shear waves about five times more than the residual does, and
// that mismatch, not the stiffness, is the slow Euler wall mode (docs/validation/airfoil.md).
// On the wall row the ghost is the mirror of the cell, ΔU_g = MΔU (as lusgs' wall_mirror): the
// wall face adds B_w + (½A(W_g)·S_out − B_w) M to the first diagonal block. The far-field ghost
// stays frozen.
//
// Over MPI ranks (slabs of rows in j) the lines cross the slab edges. By default each rank solves
// its piece of every line alone, the other rank's edge row entering the right-hand side with its
// ΔU of the pass before (zero in the first pass; block Jacobi across the cut, Gauss–Seidel over
// the passes): no waiting, at a few more cycles (measured in docs/validation/airfoil.md). With
// `exact_across_ranks` the lines are solved whole: the elimination runs over the ranks one after
// the other (each sends its last row's G_j to the next), and so does each line's forward
// substitution (g_j) up and back substitution (x_j) down. Every cell sees exactly the operands it
// sees on one rank, so N ranks reproduce the one-rank iterates bit for bit; the price is that the
// ranks wait for each other line by line.
#include <Kokkos_Core.hpp>

#include "solvers/airfoil/slab.hpp"
#include "solvers/airfoil/smoother.hpp"
#include "solvers/airfoil/views.hpp"

namespace surrox::solvers::airfoil {

class LineImplicitSmoother final : public Smoother {
 public:
  explicit LineImplicitSmoother(const FlowLevel& level);
  void smooth(FlowLevel& level, double cfl, long iteration) override;
  // The factors, lagged up to refactor_every − 1 cycles, with the cycle and CFL they are of
  // (48 doubles per cell of the level).
  void save(io::Hdf5Checkpoint& checkpoint, const std::string& prefix) const override;
  void load(const io::Hdf5Checkpoint& checkpoint, const std::string& prefix) override;

  // Lines i = first + stride · k, k < count, solved together.
  struct Lines {
    long first, stride, count;
  };

  // What the sweeps read along the lines, line-major (i, j, variable): the level's arrays are
  // row-major (variable, j, i), and walking one of their columns touches a new cache line every
  // row at a power-of-two stride (2 KB at ni = 256), which maps a line onto a few cache sets
  // and evicts the neighbour lines the next line needs (the sweeps took 1.5 µs per cell and
  // cycle at ni = 256, 1.0 at ni = 264). Copied once per smoothing step.
  struct Operands {
    Array3 u;      // U, (ni, nl, 4)
    Array3 res;    // R, (ni, nl, 4)
    Array3 faces;  // per i-face: S_x, S_y, ω½λ + λ_v, (ni + 1, nl, 3)
    Array3 du;     // ΔU, (ni, nl + 2, 4): a ghost row each end for cut lines, row j + 1
  };

 private:
  void factorize(const FlowLevel& level, double cfl);
  void refactor(const FlowLevel& level, double cfl, long iteration);  // factorize and remember
  void sweep(FlowLevel& level);  // the sweeps over the lines with the current factors
  bool finite_update(const FlowLevel& level) const;
  void solve(const FlowLevel& level, Lines lines);
  // Rows [0, count) of `edge_send_` to `destination`, or into `edge_receive_` from `source`.
  void send(const FlowLevel& level, long count, int destination, int tag);
  void receive(const FlowLevel& level, long count, int source, int tag);

  int sweeps_ = 1;
  long refactor_every_ = 10;
  long factored_iteration_ = -1;  // the cycle the factors are of; −1: none yet
  double factored_cfl_ = 0;
  bool roe_ = false;  // the j-faces' dissipation: Roe's matrix instead of the spectral radius
  double roe_linear_fix_ = -1;       // its Harten fix on the linear waves; < 0: the residual's
  bool exact_across_ranks_ = false;  // true: lines solved whole across the ranks
  // Copies the operands from the level (gather) and adds ΔU to U (update).
  void gather(const FlowLevel& level);
  void update(FlowLevel& level) const;
  // Cut lines: the other ranks' edge rows of ΔU into the ghost rows of operands_.du.
  void exchange_edges(const FlowLevel& level);

  Operands operands_;
  Array3 g_;          // g, (ni, nl, 4)
  Array3 edge_rows_;  // ΔU's edge rows in the level's layout for GhostRows, (4, 4, ni)
  GhostRows du_ghosts_;
  Kokkos::View<double***, Kokkos::LayoutRight> d_inverse_, lower_, gain_;  // (ni, nl, 16)
  // A line's value at the neighbour rank's edge row, per line of the step: G (16), g or x (4).
  Array2 edge_send_, edge_receive_;  // (ni, 16)
  Array2::HostMirror edge_host_;
};

}  // namespace surrox::solvers::airfoil
