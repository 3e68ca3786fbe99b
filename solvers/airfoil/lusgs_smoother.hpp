#pragma once
// LU-SGS (Jameson–Yoon): first-order Jacobians split by spectral radii, matrix-free (flux
// differences), scalar diagonal D = V/Δt + Σ_f (½ω λ_f + λ_v,f). The two sweeps run over
// hyperplanes i + j = const (periodic neighbours take their place by plane number, so the split
// into lower and upper neighbours stays consistent), one Kokkos kernel per plane.
//
// Across a slab edge the sweeps run as a wavefront over the ranks (RankCoupling::kPipelined):
// the forward sweep of rank r needs, for its first row, the forward ΔU of the last row of rank
// r − 1, which that rank sends on in chunks of columns as its hyperplanes pass them; the
// backward sweep runs the other way. Every cell sees exactly the neighbour values it sees on one
// rank, so N ranks reproduce the one-rank sweeps bit for bit; the price is the pipeline's fill
// (rank r starts about r × rows hyperplanes late, the short ones). With kBlockJacobi the
// neighbour's ΔU counts as zero instead: its off-diagonal term ½ΔF − (ω½λ + λ_v)ΔU vanishes and
// the edge rows skip it, as the wall and far-field rows do. The diagonal holds all four faces
// either way.
//
// The wall row (option wall_mirror > 0) may instead see its ghost as what it is, the mirror of
// the cell, ΔU_g = MΔU: the wall face's ½ωλ then cancels on ρ, ρE and the tangential momentum
// and doubles on the normal momentum, a 4 × 4 block diagonal solved per wall cell.
#include <mpi.h>

#include <vector>

#include "solvers/airfoil/smoother.hpp"
#include "solvers/airfoil/views.hpp"

namespace surrox::solvers::airfoil {

// The default: 2 passes, 0.60–0.70 of the frozen ghost's cycles to 8 orders on the default cases
// at the same Cl and Cd to 1e-6 (docs/validation/airfoil.md); 0 is the Jameson–Yoon frozen ghost.
inline constexpr int kDefaultWallMirror = 2;

class LusgsSmoother final : public Smoother {
 public:
  explicit LusgsSmoother(const FlowLevel& level);
  void smooth(FlowLevel& level, double cfl, long iteration) override;

 private:
  // One chunk of edge columns [begin, end): U and ΔU of `row` to `destination` (nonblocking;
  // the caller waits on `requests`), or into `edge` from `source` (blocking).
  void send_edge(const FlowLevel& level, long row, long begin, long end, int destination, int tag,
                 std::vector<MPI_Request>& requests);
  void receive_edge(const FlowLevel& level, const Array2& edge, long begin, long end, int source,
                    int tag);

  int wall_mirror_ = kDefaultWallMirror;  // passes of the wall row's mirror-ghost block solve
  Array3 du_;                             // ΔU, (4, nl, ni)
  Array2 diag_;                           // D, (nl, ni)
  // (U, ΔU) of the lower and upper neighbours' edge rows per column, (ni, 8), zero where there
  // is no neighbour (or no pipelining); the outgoing chunks and host buffers for MPI.
  Array2 edge_lo_, edge_hi_, edge_send_;
  Array2::HostMirror edge_host_send_, edge_host_receive_;
};

}  // namespace surrox::solvers::airfoil
