#pragma once
// Steady 2D compressible flow past an airfoil on a body-fitted O-grid (mesh/curvilinear_grid.hpp),
// or over TMR's flat plate on a rectangle: the Euler equations, the laminar Navier–Stokes
// equations, or RANS with the Spalart–Allmaras model (turbulence.hpp; μ by Sutherland's law
// there), cell-centred finite volumes.
//
// Units: ρ∞ = 1, |u∞| = 1, lengths as the grid gives them (chord 1 from the generator; the chord
// c is the distance from the trailing edge, node 0, to the farthest wall node), p∞ = 1/(γ M²),
// temperature as θ = p/ρ, μ = ρ∞ |u∞| c / Re constant (no Sutherland law: at M ≤ 0.5 the
// temperature varies by < 5 %), Pr = 0.72, γ = 1.4. Coefficients use ½ρ∞|u∞|² c; Cm is about
// the quarter chord on the chord line, nose up positive.
//
// This class is the facade: parameters and case schema, the run loop's interface, host access,
// output and checkpoints. The numerics live one concept per file (docs/architecture.md):
// - flux.hpp: pointwise physics (Roe flux with Harten's entropy fix, MUSCL limiters, laminar
//   viscous flux); boundary_conditions.*: wall and far-field ghost rows;
// - face_fluxes.hpp, residual.*: the face fluxes of the equations and the residual driver;
// - smoother.hpp, smoother_registry.cpp, lusgs_smoother.*: implicit smoothers by name (LU-SGS);
// - flow_level.*, multigrid.*: one grid level's state, and the FAS cycle over the levels;
// - slab.*, slab_geometry.*: the split over MPI ranks, halo exchanges, the slab's metrics;
// - surface_forces.*: wall forces, coefficients, Cp and Cf.
//
// Iteration: local pseudo-time steps Δt = CFL·V / Σ_f(½λ_f + λ_v,f), the smoother on every
// level of a FAS sawtooth cycle; one advance() is one cycle. Convergence: the L2 norm of the
// density residual dρ/dt (R_ρ/V) over the cells, relative to that of the uniform free stream on
// this grid (the first iteration of a cold start); converged when it falls below residual_drop.
// Warm starts keep that reference.
//
// MPI: the cells are split over the ranks of a communicator in slabs of whole rows in j
// (slab.hpp); rank 0 holds the wall, the last rank the far field. Norms, forces and diagnostics
// are global and the same on every rank, and N ranks take the one-rank iteration path bit for
// bit. Fewer than 2 rows per rank on the finest grid is an InputError.
//
// All arrays live in Kokkos::DefaultExecutionSpace memory, indexed (variable, j, i) or (j, i)
// with i fastest, like VTK points, j local to the slab; the state() fields are ρ, u, v, p of this
// rank's slab as (1, rows, ni) views into them. The host accessors (primitive_host, ...) and
// set_initial_primitive work on the whole grid on every rank.
#include <mpi.h>

#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mesh/curvilinear_grid.hpp"
#include "solvers/airfoil/airfoil_parameters.hpp"
#include "solvers/airfoil/anderson_acceleration.hpp"
#include "solvers/airfoil/flow_level.hpp"
#include "solvers/cauchy_criterion.hpp"
#include "solvers/steady_flow_solver.hpp"

namespace surrox::solvers::airfoil {

class AirfoilSolver final : public SteadyFlowSolver {
 public:
  using HostMatrix = mesh::HostMatrix;
  using Array2 = Kokkos::View<double**, Kokkos::LayoutRight>;   // (j, i)
  using Array3 = Kokkos::View<double***, Kokkos::LayoutRight>;  // (variable, j, i)

  static Schema schema();

  // From the case file: parameters and the grid (mesh section, mesh/airfoil_grid.hpp).
  void initialize(const CaseNode& config, Runtime& runtime) override;
  // The numerical settings of a validated case (everything but the mesh and the start).
  static AirfoilParameters parameters_from_case(const CaseNode& config);
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
  // RANS warm start, after set_initial_primitive: ν̃ from the kinematic eddy viscosity ν_t on the
  // ni × nj cells (same layout), inverting ν_t = ν̃ f_v1(ν̃/ν) with ν = μ(T)/ρ of the current
  // state; ν_t < 0 counts as 0. Returns false (and changes nothing) without a turbulence model;
  // InputError on a wrong shape or a non-finite value.
  bool set_initial_eddy_viscosity(const HostMatrix& nu_t) override;
  // The cycles over which the CFL number grows from 1 (solver.cfl_ramp), counted from the last
  // start: a warm start near the solution needs less of the ramp that carries a free-stream
  // start through its transient (couplers/warm_start). Negative: InputError.
  void set_cfl_ramp(long cycles);
  // The current primitive (k = 0..3: ρ, u, v, p) or conservative fields as host ni × nj arrays,
  // the whole grid on every rank (collective: gathered from the slabs).
  std::array<HostMatrix, 4> primitive_host() const override;
  std::array<HostMatrix, 4> conservative_host() const;

  StepReport advance() override;
  bool finished() const override;
  // Every criterion of stop_on holds (the residual drop and/or the Cauchy test on forces).
  bool converged() const override;
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
  // prolongation), multigrid_coarse: all the work on the coarser levels, and acceleration (the
  // Anderson step, when on). They add up to about the time in advance().
  std::map<std::string, double> phase_times() const override { return fine().phase_seconds; }
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
  std::array<double, 4> absolute_residuals() const { return fine().absolute_residual; }
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
  using Decomposition = SlabLayout;  // levels used, levels the grid allows, rows per rank
  static Decomposition decompose(long ni, long nj, int ranks, long levels);

 private:
  const FlowLevel& fine() const { return flow_levels_.front(); }
  FlowLevel& fine() { return flow_levels_.front(); }
  void reset_history();
  double current_cfl() const;
  // Γ = ½ Cl c from the last residual's wall forces, with the vortex far field around a wall.
  void update_circulation();
  // After a warm start's state was set: the vortex far field's circulation from that state's
  // lift, and a fresh iteration history.
  void start_from_current_state();

  // The finest level's, fixed at initialize(): parameters (checked, linear_fix resolved), cells
  // of the whole grid, this rank's rows, the levels used, chord and free-stream pressure.
  AirfoilParameters p_;
  long ni_ = 0, nj_ = 0;
  long j0_ = 0, nl_ = 0;
  int levels_ = 1;
  double chord_ = 1, p_inf_ = 0;
  std::map<std::string, double> shape_;  // thickness and camber of a case-file airfoil

  std::vector<FlowLevel> flow_levels_;  // the multigrid levels, [0] the finest
  // The state the acceleration sees: U itself, or with RANS U and ν̃'s rows packed (5, nl, ni).
  void pack_accelerated_state();
  void unpack_accelerated_state();  // and W from U
  Array3 accelerated_state_;
  std::unique_ptr<AndersonAcceleration> acceleration_;  // when acceleration_depth > 0
  double acceleration_lowest_ = INFINITY;  // the lowest residual since the history began
  // Histories cleared by the restart criterion, and mixed iterates rejected (ρ or p ≤ 0).
  long acceleration_restarts_ = 0, acceleration_rejects_ = 0;

  long iteration_ = 0;
  std::array<double, 4> first_residual_{0, 0, 0, 0};
  std::array<double, 4> relative_residual_{1, 1, 1, 1};
  double turbulence_first_residual_ = 0;
  bool stop_on_residual_ = true;
  CauchyCriterion cauchy_{{}, 2, 1.0};  // the Cauchy test of stop_on's coefficients
  bool ramp_reference_ = false;  // the reference is the CFL ramp's largest residual  // RANS: the ν̃
                                 // residual of the first cycle
  FieldSet state_;
};

}  // namespace surrox::solvers::airfoil
