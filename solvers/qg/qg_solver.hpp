#pragma once
// The wind-driven circulation of a closed basin: the barotropic vorticity equation on a β-plane
//   ∂ω/∂t + J(ψ, ω) + β ∂ψ/∂x = F(y) − r ω + ν ∇²ω,   ∇²ψ = ω,   u = −∂ψ/∂y, v = ∂ψ/∂x,
// on [0, Lx] × [−Ly/2, Ly/2] with ψ = 0 on the walls and free-slip (ω = 0) or no-slip (ω from
// Thom's formula, 2ψ_adjacent/h²) walls, forced by the wind curl F = F0 sin(2πy/Ly). In the
// nondimensional form of San et al. (2011) and Rahman et al. (2019) β = F0 = 1/Ro, ν = 1/Re
// (their ψ is −ψ here); the dimensional form takes β, r, A_H = ν and F0 = 2π τ0/(ρ H Ly).
//
// Numerics: a vertex grid of nx × ny intervals whose (nx − 1)(ny − 1) interior nodes are the
// unknowns; the walls are the ghost layer of a DmdaGrid with walls on every side (QG's y is the
// grid's z). Arakawa's Jacobian, central differences for β ψ_x and ν∇²ω, Shu–Osher SSP-RK3 with
// a Poisson inversion after every stage (FftPoissonSolver or KspPoissonSolver), CFL-adaptive
// steps clipped onto the driver's output times.
//
// Energy E = ½Σ|∇ψ|² hx hy = −½Σψω hx hy and enstrophy Z = ½Σω² hx hy obey discrete budgets
//   dE/dt = P − D_r − D_ν,  P = −Σψ F,  D_r = −rΣψω = 2rE,  D_ν = νΣψ ∇²ω   (× hx hy)
// exactly in the semi-discrete equations (Arakawa: Σψ J = 0; Σψ ψ_x = 0), so monitor.csv and
// summary.json carry every term and the time-averaged balance.
#include <array>
#include <memory>
#include <vector>

#include "solvers/common/dmda_grid.hpp"
#include "solvers/common/poisson_solver.hpp"
#include "solvers/solver.hpp"

namespace surrox::solvers::qg {

Schema qg_schema();

// The physical coefficients of the equation (case-file units).
struct QgParameters {
  double beta = 0, drag = 0, viscosity = 0, forcing = 0;  // β, r, ν, F0
  double lx = 1, ly = 2;
  bool advection = true, no_slip = false;
};

class QgSolver final : public Solver {
 public:
  static Schema schema() { return qg_schema(); }

  void initialize(const CaseNode& config, Runtime& runtime) override;
  StepReport advance() override;
  void limit_step_to(double time) override { requested_stop_ = time; }
  bool finished() const override;
  double progress() const override { return std::min(1.0, time_ / end_time_); }
  double residual() const override { return residual_; }
  double time() const override { return time_; }
  long step() const override { return step_; }
  FieldSet& state() override { return state_; }
  Diagnostics diagnostics() const override;
  io::MeshData output_mesh() const override;
  Diagnostics monitor() const override { return instantaneous(); }
  std::map<std::string, double> phase_times() const override { return phase_seconds_; }
  bool supports_restart() const override { return true; }
  void save_state(io::Hdf5Checkpoint& checkpoint) const override;
  void load_state(const io::Hdf5Checkpoint& checkpoint) override;
  void finalize(const std::filesystem::path& output_dir, nlohmann::json& results) override;

  // Global figures of the current state: energy, enstrophy, the energy budget terms
  // (dE/dt = wind_input − drag_dissipation − viscous_dissipation), the enstrophy budget terms
  // (dZ/dt = enstrophy_wind + enstrophy_beta + enstrophy_advection − enstrophy_drag −
  // enstrophy_viscous; the advection term is 0 up to round-off with free-slip walls), psi_max,
  // psi_min.
  Diagnostics instantaneous() const;
  // The largest stable step for the current state (before the cfl factor).
  double stable_dt() const;
  const QgParameters& parameters() const { return p_; }
  const DmdaGrid& grid() const { return *grid_; }
  PoissonSolver& poisson() { return *poisson_; }
  // Grid spacings.
  double hx() const { return hx_; }
  double hy() const { return hy_; }

  // Access for a coupler that proposes states (couplers/neural_step*; qg_state_access.cpp):
  // host copies of this rank's interior nodes, x fastest (index k · owned_x + i).
  long owned_nodes() const { return xm_ * zm_; }
  std::vector<double> vorticity() const;
  std::vector<double> streamfunction() const;
  // ∂ω/∂t of the current state: the right-hand side an RK3 stage evaluates.
  std::vector<double> vorticity_tendency();
  // ω on the interior nodes; ψ by one inversion, then the wall vorticity.
  void set_vorticity(const std::vector<double>& omega);
  // ψ and ω as saved by streamfunction() and vorticity() (no inversion).
  void set_state(const std::vector<double>& psi, const std::vector<double>& omega);
  // The clock of a state set from outside (as if the solver had stepped to it). The budget
  // integrals of summary.json do not cover such jumps.
  void set_clock(double time, long step);

 private:
  void set_initial(const CaseNode& config);
  void solve_streamfunction();
  void set_wall_vorticity() const;
  void stage(int s, double dt);
  void tendency() const;
  void accumulate(double step_start);  // the budget integrals over the step just taken

  QgParameters p_;
  double end_time_ = 1, cfl_ = 0.8, max_dt_ = 0, fixed_dt_ = 0, average_from_ = 0;
  double steady_tolerance_ = 0, requested_stop_ = INFINITY;
  long nx_ = 0, ny_ = 0;
  double hx_ = 0, hy_ = 0;
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::unique_ptr<DmdaGrid> grid_;
  std::unique_ptr<PoissonSolver> poisson_;
  CellBox owned_{};
  long ox_ = 0, oz_ = 0, xs_ = 0, zs_ = 0, xm_ = 0, zm_ = 0;
  Field3 psi_, omega_, omega0_, rate_, rhs_;
  Kokkos::View<double*> forcing_;  // F(y) per ghosted row

  double time_ = 0, dt_ = 0, residual_ = 0;
  long step_ = 0;
  // Budget integrals over [average_from, t] (trapezoid in time) and the energy at its start.
  std::map<std::string, double> integrals_;
  Diagnostics last_;  // the figures at the end of the previous step
  double averaged_time_ = 0, energy_at_start_ = NAN;
  std::map<std::string, double> phase_seconds_;
  FieldSet state_;
};

}  // namespace surrox::solvers::qg
