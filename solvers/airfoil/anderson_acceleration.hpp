#pragma once
// Anderson acceleration of the multigrid cycle (Walker & Ni 2011, "type II"; the nonlinear
// GMRES of Washio & Oosterlee 1997 and of PETSc's SNESNGMRES with a right nonlinear
// preconditioner are the same idea). The FAS cycle is a fixed-point map U ← G(U); near the
// solution its error contracts mode by mode, and the slowest modes set the cycle count. Anderson
// keeps the last `depth` differences of the iterates and of their updates f = G(U) − U and takes
// the combination whose linearised update is smallest in the least-squares sense:
//   γ = argmin ‖f_k − ΔF γ‖,   U_{k+1} = G(U_k) − ΔG γ,
// which removes the few slow modes a Krylov space of that size spans. The discretisation (the
// fixed point) is unchanged; only the path to it.
//
// Why not SNESAnderson itself: SNES owns its iteration loop and restarts its history at every
// SNESSolve, while the solver's run loop advances one cycle at a time (monitor, Cauchy test,
// checkpoints, restarts). The m × m least-squares problem is solved by LAPACK's gelss on the Gram
// matrix, as SNESNGMRES does.
//
// The vectors are the solver's own Kokkos arrays (any memory space); the inner products weight
// each variable by 1/scale² (its free-stream magnitude) and are summed per grid row, the rows
// of all ranks of `comm` added in global row order (the slabs are rows in rank order), so N
// ranks take the one-rank path bit for bit.
#include <mpi.h>

#include <string>
#include <vector>

#include "solvers/airfoil/views.hpp"

namespace surrox::io {
class Hdf5Checkpoint;
}

namespace surrox::solvers::airfoil {

class AndersonAcceleration {
 public:
  static constexpr int kMaxDepth = 32;
  static constexpr int kMaxVariables = 8;
  // `u_shape`: the (variables, rows, ni) state this rank owns, `scale` a magnitude per variable
  // (at most kMaxVariables); 1 ≤ `depth` ≤ kMaxDepth differences kept (InputError otherwise).
  AndersonAcceleration(const Array3& u_shape, int depth, const std::vector<double>& scale,
                       MPI_Comm comm);

  // Before a cycle: remember U_k.
  void remember(const Array3& u);
  // After the cycle, u holds G(U_k): replaced by the accelerated iterate. Returns the number of
  // differences used (0 on the first call after clear(), which leaves u as it is).
  int accelerate(const Array3& u);
  // Forget the history (a growing residual, or the acceleration paused).
  void clear();
  // The accelerated iterate was not admissible: u ← G(U_k) of the last accelerate(), and clear().
  void reject(const Array3& u);
  int depth() const { return depth_; }

  // Checkpoints: this rank's history as arrays and its counters as scalars, names beginning
  // with `prefix`, so that a restart continues bit for bit; nothing while the history is empty.
  // load() restores what save() wrote and returns true; with no history in the checkpoint, or
  // one of another depth or slab, it clears and returns false. Collective over the ranks.
  void save(io::Hdf5Checkpoint& checkpoint, const std::string& prefix) const;
  bool load(const io::Hdf5Checkpoint& checkpoint, const std::string& prefix);

 private:
  using Vector = Kokkos::View<double*, Kokkos::LayoutRight>;
  // (column, entry) in single precision: the history's reads are the acceleration's whole cost
  // (memory-bound), and a difference to 1e-7 changes only how close to optimal γ is, not the
  // fixed point.
  using Columns = Kokkos::View<float**, Kokkos::LayoutRight>;

  // Per grid row of this rank: ΔF_cᵀΔF_j (columns 0..) and ΔF_jᵀ f (kMaxDepth..).
  using RowSums = Kokkos::View<double**, Kokkos::LayoutRight>;

  int depth_;
  long size_, block_;                // entries, entries per variable
  long rows_, ni_;                   // this rank's grid rows, cells per row
  SumN<kMaxVariables> root_weight_;  // 1/scale: f and ΔF are stored weighted
  int variables_;
  MPI_Comm comm_;
  Vector x_, f_, g_previous_;  // U_k; the last f (weighted) and G(U)
  Columns df_, dg_;
  std::vector<double> gram_;  // depth × depth, ΔF_iᵀ ΔF_j (weighted)
  RowSums row_sums_;
  RowSums::HostMirror row_sums_host_;
  std::vector<long> rows_of_rank_;  // grid rows of every rank, in rank (= row) order
  std::vector<int> counts_, offsets_;
  std::vector<double> all_row_sums_;  // every rank's row sums, global row order
  long total_rows_ = 0;
  int count_ = 0, next_ = 0;
  bool have_previous_ = false;
};

}  // namespace surrox::solvers::airfoil
