#pragma once
// Steady 2D compressible flow past an airfoil on a body-fitted O-grid (mesh/curvilinear_grid.hpp):
// the Euler equations or the laminar Navier–Stokes equations, cell-centred finite volumes.
//
// Units: ρ∞ = 1, |u∞| = 1, lengths as the grid gives them (chord 1 from the generator; the chord
// c is the distance from the trailing edge, node 0, to the farthest wall node), p∞ = 1/(γ M²),
// temperature as θ = p/ρ, μ = ρ∞ |u∞| c / Re constant (no Sutherland law: at M ≤ 0.5 the
// temperature varies by < 5 %), Pr = 0.72, γ = 1.4. Coefficients use ½ρ∞|u∞|² c; Cm is about
// the quarter chord on the chord line, nose up positive.
//
// Numerics:
// - Inviscid flux: Roe with Harten's entropy fix on the acoustic waves (flux.hpp says why);
//   MUSCL reconstruction of the primitive variables (ρ, u, v, p) along grid lines with a
//   limiter (van Albada by default: smooth, so residuals fall to round-off).
// - Viscous flux: face gradients by Green–Gauss on the diamond (L centroid, node A, R centroid,
//   node B); node values are averages of the four surrounding cells, ghosts included, so the
//   no-slip wall nodes get u = 0 exactly.
// - Boundaries by two ghost rows at each end of j: the wall (j = 0) mirrors the first two
//   interior rows (slip: reflected normal velocity; no-slip: reversed velocity; ρ and p
//   copied, so the wall is adiabatic); the far field (j = nj) holds the characteristic state
//   from the Riemann invariants u_n ± 2c/(γ−1) (entropy and tangential velocity from the
//   interior at outflow, from the free stream at inflow), optionally with the free stream
//   corrected by the compressible point vortex of the current lift; i is periodic.
// - Pseudo-time: local time steps Δt = CFL·V / Σ_f(½λ_f + λ_v,f) and implicit LU-SGS
//   (Jameson–Yoon): first-order Jacobians split by spectral radii, matrix-free (flux
//   differences), scalar diagonal D = V/Δt + Σ_f (½ω λ_f + λ_v,f). The two sweeps run over
//   hyperplanes i + j = const (periodic neighbours take their place by plane number, so the
//   split into lower and upper neighbours stays consistent), one Kokkos kernel per plane.
//   LU-SGS alone reached only 6 orders in 4000 iterations on the 256 × 128 NACA grid, so it is
//   the smoother of a FAS multigrid (Jameson's sawtooth V-cycle, one sweep pair per level,
//   first-order coarse levels of every other node, volume-weighted restriction, bilinear
//   prolongation): one advance() is one cycle, about 1.8 single-grid iterations of wall time.
// - Euler only: the Harten width is also applied to the entropy/shear eigenvalue |V·n|
//   (linear_fix = 0.2). Without it the entropy layer along the slip wall, where V·n → 0 on the
//   wall-parallel faces, keeps an undamped odd–even mode in j that stalls the residual near 1e-4.
// - Convergence: the L2 norm of the density residual dρ/dt (R_ρ/V) over the cells, relative
//   to that of the uniform free stream on this grid (the first iteration of a cold start);
//   converged when it falls below residual_drop. Warm starts keep that reference.
//
// MPI: the cells are split over the ranks of a communicator in slabs of whole rows in j (the
// wall-normal direction): rank r holds rows j0 .. j0 + rows − 1, rank 0 the wall, the last rank
// the far field; i stays periodic and local. Every rank builds the whole grid and its metrics
// (milliseconds) and keeps its slab plus the ghost layers the stencils need; the two ghost rows
// of the primitive state at a slab edge are the neighbour's cells, exchanged before every
// residual evaluation on every multigrid level. Norms, forces and diagnostics are global and the
// same on every rank. The LU-SGS sweeps run as a wavefront over the ranks (each passes its edge
// row's ΔU on to the next in chunks of columns), so N ranks take the one-rank iteration path bit
// for bit; block Jacobi at the slab edges (RankCoupling) is the cheaper, weaker alternative.
// Multigrid coarsens each slab locally: slabs hold whole blocks of 2^(levels−1) rows, and fewer
// levels are used when the ranks would otherwise get under 2 coarse rows; fewer than 2 rows per
// rank on the finest grid is an InputError. The prolongation takes one ghost row of the coarse
// correction from the neighbour.
//
// All arrays live in Kokkos::DefaultExecutionSpace memory, indexed (variable, j, i) or (j, i)
// with i fastest, like VTK points, j local to the slab; the state() fields are ρ, u, v, p of this
// rank's slab as (1, rows, ni) views into them. The host accessors (primitive_host, ...) and
// set_initial_primitive work on the whole grid on every rank.
#include <mpi.h>

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mesh/curvilinear_grid.hpp"
#include "solvers/airfoil/flux.hpp"
#include "solvers/steady_flow_solver.hpp"

namespace surrox::solvers::airfoil {

enum class Equations { kEuler, kNavierStokes };
enum class FarField { kFreestream, kVortex };
// What j = 0 is: the airfoil wall (slip for Euler, no-slip adiabatic for Navier–Stokes), or,
// for verification only, another far field (free-stream preservation on a closed annulus).
enum class InnerBoundary { kWall, kFarField };
// How LU-SGS couples the slabs of neighbouring MPI ranks: pipelined, the sweeps run as a
// wavefront over the ranks and reproduce the one-rank sweeps exactly; block Jacobi, the
// neighbour's ΔU counts as zero (no waiting, but a weaker smoother: the laminar NACA 0012 case
// stalls on 2 ranks). C++ only, for comparisons; case files always pipeline.
enum class RankCoupling { kPipelined, kBlockJacobi };

struct AirfoilParameters {
  Equations equations = Equations::kEuler;
  double mach = 0.5;
  double alpha_deg = 0;
  double reynolds = 0;  // chord Reynolds number; required > 0 for Navier–Stokes
  double cfl = 50;      // local pseudo-time-step CFL number
  long cfl_ramp = 50;   // iterations over which the CFL grows geometrically from 1
  long max_iterations = 5000;
  double residual_drop = 1e-8;
  Limiter limiter = Limiter::kVanAlbada;
  double limiter_epsilon = 1e-6;  // van Albada's ε (squared difference, see flux.hpp)
  double entropy_fix = 0.1;       // Harten's δ/ĉ on the acoustic waves
  double linear_fix = -1;         // the same on the entropy/shear waves; < 0: 0.2 Euler, 0 NS
  double lusgs_omega = 1.0;       // over-relaxation of the spectral radii in the LU-SGS diagonal
  FarField far_field = FarField::kVortex;
  // Levels of the FAS multigrid (1: single grid). Each coarser level takes every other node;
  // levels stop where a dimension would be odd or below 8 × 4 cells, or where an MPI rank's slab
  // would keep fewer than 2 rows on the coarsest level.
  long multigrid_levels = 4;
  InnerBoundary inner = InnerBoundary::kWall;
  RankCoupling lusgs_ranks = RankCoupling::kPipelined;
};

// Parameter names: each table row gives a case-file name and its value, so choices and parsing
// share one list.
template <class T>
struct NamedValue {
  const char* name;
  T value;
  const char* doc;
};
inline constexpr NamedValue<Equations> kEquationsTable[] = {
    {"euler", Equations::kEuler, "inviscid, slip wall"},
    {"navier_stokes", Equations::kNavierStokes, "laminar, no-slip adiabatic wall"}};
inline constexpr NamedValue<Limiter> kLimiterTable[] = {
    {"van_albada", Limiter::kVanAlbada, "smooth; converges to round-off (default)"},
    {"van_leer", Limiter::kVanLeer, "harmonic mean of the slopes"},
    {"minmod", Limiter::kMinmod, "most dissipative; for shocks"},
    {"none", Limiter::kNone, "unlimited Fromm slopes (smooth subsonic flow only)"}};
inline constexpr NamedValue<FarField> kFarFieldTable[] = {
    {"freestream", FarField::kFreestream, "uniform free stream outside the far-field boundary"},
    {"vortex", FarField::kVortex,
     "free stream plus the Prandtl–Glauert point vortex of the current lift (smaller far-field "
     "error)"}};

class AirfoilSolver final : public SteadyFlowSolver {
 public:
  using HostMatrix = mesh::HostMatrix;
  using Array2 = Kokkos::View<double**, Kokkos::LayoutRight>;   // (j, i)
  using Array3 = Kokkos::View<double***, Kokkos::LayoutRight>;  // (variable, j, i)

  static Schema schema();

  // From the case file: parameters and the grid (mesh section, mesh/airfoil_grid.hpp).
  void initialize(const CaseNode& config, Runtime& runtime) override;
  // From C++ (tests, couplers): any valid O-grid, the whole grid on every rank of `comm`
  // (collective; MPI_COMM_SELF: one rank); starts from the free stream. InputError on a grid
  // smaller than 8 × 4 cells, fewer than 2 rows of cells per rank, invalid parameters, or a grid
  // with folded cells.
  void initialize(const AirfoilParameters& parameters, const mesh::CurvilinearGrid& grid,
                  MPI_Comm comm = MPI_COMM_SELF);

  // Warm start: the primitive fields ρ, u, v, p on the ni × nj cells (index (i, j) as in the
  // grid's metrics, host memory, copied; the whole grid on every rank, collective), in the units
  // above. Resets the iteration count; the residual reference stays the free-stream one, so a
  // good field converges in fewer iterations. InputError (on every rank) when a shape is wrong or
  // ρ, p are not positive and finite.
  void set_initial_primitive(const HostMatrix& rho, const HostMatrix& u, const HostMatrix& v,
                             const HostMatrix& p) override;
  // The current primitive (k = 0..3: ρ, u, v, p) or conservative fields as host ni × nj arrays,
  // the whole grid on every rank (collective: gathered from the slabs).
  std::array<HostMatrix, 4> primitive_host() const override;
  std::array<HostMatrix, 4> conservative_host() const;

  StepReport advance() override;
  bool finished() const override;
  double progress() const override;
  double residual() const override { return relative_residual_[0]; }
  double time() const override { return static_cast<double>(iteration_); }
  long step() const override { return iteration_; }
  FieldSet& state() override { return state_; }
  // Collective (the separation point of Navier–Stokes needs the wall rank's surface).
  Diagnostics diagnostics() const override;
  // This rank's slab: a structured piece with extent (0, ni, j0, j0 + rows); collective.
  io::MeshData output_mesh() const override;
  Diagnostics monitor() const override;
  // Seconds per phase: the fine grid's (boundaries, halo: ghost-row exchanges, viscous_nodes,
  // fluxes, residual, reductions: global sums, lusgs, update, multigrid: restriction and
  // prolongation) and multigrid_coarse: all the work on the coarser levels. They add up to
  // about the time in advance().
  std::map<std::string, double> phase_times() const override { return phase_seconds_; }
  bool supports_restart() const override { return true; }
  void save_state(io::Hdf5Checkpoint& checkpoint) const override;
  void load_state(const io::Hdf5Checkpoint& checkpoint) override;
  void finalize(const std::filesystem::path& output_dir, nlohmann::json& results) override;

  // Evaluates the residual R = Σ_faces (F − F_v)·S of the current state (no update), its global
  // norms and the wall forces; collective.
  void compute_residual() override;
  // Host copy of the last residual, (k, i, j) → R as 4 ni × nj arrays, whole grid (collective).
  std::array<HostMatrix, 4> residual_host() const;
  // Fluxes leaving the domain through the wall (j = 0, out of the cells into the body) and the
  // far field (j = nj) in the last residual, summed over i: the conservation budget (collective).
  std::array<double, 4> boundary_outflow() const;

  // Aerodynamic coefficients of the last residual evaluation (wall fluxes): cl, cd,
  // cd_pressure, cd_friction, cm (about the quarter chord, nose up positive). The same on every
  // rank; not collective.
  Diagnostics coefficients() const override;
  // L2 norms of R_k/V of the last residual (absolute) and their first-iteration values.
  std::array<double, 4> absolute_residuals() const { return absolute_residual_; }
  const AirfoilParameters& parameters() const { return p_; }
  double convergence_criterion() const override { return p_.residual_drop; }
  long cells_i() const { return ni_; }
  long cells_j() const { return nj_; }
  // This rank's slab: rows first_row() .. first_row() + rows() − 1 of the cells_j() rows.
  long first_row() const { return j0_; }
  long rows() const { return nl_; }
  int multigrid_levels() const { return levels_; }
  double chord() const { return chord_; }
  double freestream_pressure() const { return p_inf_; }

  // Surface distributions per wall face, i = 0..ni−1: x/c, y/c, Cp, Cf (along the downstream
  // tangent), and whether the face is on the upper surface. Collective (broadcast from the wall
  // rank); the same on every rank.
  struct Surface {
    std::vector<double> x, y, cp, cf;
    std::vector<int> upper;
  };
  Surface surface() const;
  // First x/c on the upper surface, from the leading edge, where Cf turns negative; NaN if none.
  // Collective.
  double separation_point() const;

  // The slab decomposition of nj rows over `ranks` for up to `levels` multigrid levels (levels
  // also stop where the grid gets odd or under 8 × 4 cells): the levels used and the rows of each
  // rank, whole blocks of 2^(levels−1) rows, at least 2 rows per rank on every level. InputError
  // when even a single grid leaves a rank under 2 rows.
  struct Decomposition {
    int levels = 1;       // levels used
    int grid_levels = 1;  // levels the grid alone allows (as on one rank)
    std::vector<long> rows;
  };
  static Decomposition decompose(long ni, long nj, int ranks, long levels);

 private:
  // Send and receive buffers of one ghost-row exchange, (4, ghost rows, ni) per neighbour, and
  // their host mirrors (MPI works on host memory).
  struct HaloBuffers {
    Array3 send_lo, send_hi, recv_lo, recv_hi;
    Array3::HostMirror host_send_lo, host_send_hi, host_recv_lo, host_recv_hi;
  };

  // One level: `rows` is the decomposition of this level's grid over the ranks of comm.
  void initialize_level(const AirfoilParameters& parameters, const mesh::CurvilinearGrid& grid,
                        MPI_Comm comm, const std::vector<long>& rows, int levels);
  void setup_geometry(const mesh::CurvilinearGrid& grid);
  void set_freestream();
  void reset_history();
  void update_primitives();
  void apply_boundaries();
  void lusgs_sweeps(double cfl);
  void smooth(double cfl);
  void coarse_grid_correction(double cfl);
  void check_state() const;
  double current_cfl() const;

  // Halo exchange between neighbouring slabs (no-ops on one rank): the two ghost rows of the
  // primitive state w_ at each slab edge, and the one ghost row of the coarse correction
  // correction_ that the prolongation reads.
  void exchange_primitive_halo();
  void exchange_correction_halo();
  // Copies rows [g, 2g) of `a` (4, rows + 2g, ni) to the lower neighbour's rows [rows + g,
  // rows + 2g), and rows [rows, rows + g) to the upper neighbour's rows [0, g).
  void exchange_ghost_rows(const Array3& a, const HaloBuffers& buffers) const;
  HaloBuffers halo_buffers(long ghosts) const;
  // Sums of per-rank values over the ranks, added in rank order on every rank (so every rank
  // gets the same bits, whatever MPI's reduction order).
  void sum_over_ranks(double* values, int n) const;
  // Rows [first, first + nl_) of `a` (4, *, ni) from every rank, as 4 host ni × nj arrays.
  std::array<HostMatrix, 4> gather(const Array3& a, long first, const char* label) const;
  // One chunk of LU-SGS edge columns [begin, end): U and ΔU of `row`, to `destination`
  // (nonblocking; the caller waits on `requests`); and into `edge` (blocking).
  void send_edge(long row, long begin, long end, int destination, int tag,
                 std::vector<MPI_Request>& requests);
  void receive_edge(const Array2& edge, long begin, long end, int source, int tag);
  bool has_wall() const { return rank_ == 0; }
  bool has_far_field() const { return rank_ == ranks_ - 1; }

  AirfoilParameters p_;
  long ni_ = 0, nj_ = 0;  // cells of the whole grid
  // Slab decomposition over comm_: this rank's rows j0_ .. j0_ + nl_ − 1; rows_ of every rank.
  MPI_Comm comm_ = MPI_COMM_SELF;
  int rank_ = 0, ranks_ = 1;
  long j0_ = 0, nl_ = 0;
  std::vector<long> rows_;
  double gamma_ = kGamma, p_inf_ = 0, mu_ = 0, chord_ = 1, alpha_ = 0;
  double x_ref_ = 0.25, y_ref_ = 0;  // quarter chord
  double x_le_ = 0, y_le_ = 0;
  std::map<std::string, double> shape_;  // thickness and camber of a case-file airfoil
  double chord_dx_ = 1, chord_dy_ = 0;  // unit vector from the leading to the trailing edge
  long i_le_ = 0;                       // first wall face of the upper surface
  HostMatrix grid_x_, grid_y_;          // node coordinates (i, j), host, whole grid
  bool viscous_ = false;

  // Geometry of the slab (nl = its rows, row index local), device memory.
  Array2 area_, wall_distance_;
  Array2 xc_, yc_;    // centroids with one ghost row each end: (nl + 2, ni), row j + 1
  Array2 xn_, yn_;    // nodes (nl + 1, ni + 1)
  Array2 sxi_, syi_;  // i-faces (nl, ni + 1)
  Array2 sxj_, syj_;  // j-faces (nl + 1, ni)
  Array2 vol_j_;      // mean area of the two cells of each j-face (nl + 1, ni)
  HostMatrix metrics_area_, metrics_wall_distance_;  // (i, j) for output, whole grid

  // State and work arrays of the slab.
  Array3 u_;         // conservative, (4, nl, ni)
  Array3 w_;         // primitive with two ghost rows each end, (4, nl + 4, ni), row j + 2
  Array3 res_, du_;  // residual and LU-SGS update, (4, nl, ni)
  Array3 fi_, fj_;   // face fluxes: i-faces (4, nl, ni), j-faces (4, nl + 1, ni)
  Array2 wall_visc_x_, wall_visc_y_;  // viscous part of the wall flux, (1, ni); wall rank only
  Array2 lam_i_, lam_j_;              // ½λ (convective) per face: (nl, ni), (nl + 1, ni)
  Array2 lv_i_, lv_j_;                // viscous spectral radii per face
  Array2 node_u_, node_v_, node_t_;   // node values (nl + 1, ni) for viscous gradients
  Array2 diag_;                       // LU-SGS diagonal (nl, ni)
  HaloBuffers w_halo_;                // two ghost rows of w_
  // LU-SGS wavefront: (U, ΔU) of the lower and upper neighbours' edge rows per column, (ni, 8),
  // the outgoing chunks and host buffers for MPI.
  Array2 edge_lo_, edge_hi_, edge_send_;
  Array2::HostMirror edge_host_send_, edge_host_receive_;

  // FAS multigrid: the next coarser level (first order, with the forcing term P added to its
  // residual), and the state it started from, for the correction.
  std::unique_ptr<AirfoilSolver> coarse_;
  Array3 forcing_;  // (4, nl, ni); empty on the finest level
  Array3 u_start_;  // coarse levels: U restricted from the finer level
  // Coarse levels: U − U⁰ with one ghost row each end, (4, nl + 2, ni), row j + 1.
  Array3 correction_;
  HaloBuffers correction_halo_;
  int levels_ = 1;

  long iteration_ = 0;
  std::array<double, 4> absolute_residual_{0, 0, 0, 0};
  std::array<double, 4> first_residual_{0, 0, 0, 0};
  std::array<double, 4> relative_residual_{1, 1, 1, 1};
  // Wall force sums of the last residual, global: pressure x, y, friction x, y, moment.
  std::array<double, 5> wall_force_{0, 0, 0, 0, 0};
  double circulation_ = 0;  // Γ = ½ Cl c of the vortex far field
  std::map<std::string, double> phase_seconds_;
  FieldSet state_;
};

}  // namespace surrox::solvers::airfoil
