#pragma once
// Rayleigh–Bénard convection in two and three dimensions: the Boussinesq equations in free-fall
// units
//   ∂u/∂t + u·∇u = −∇p + (Pr/Ra)^½ ∇²u + b ẑ,   ∂b/∂t + u·∇b = (Ra·Pr)^−½ ∇²b,   ∇·u = 0
// on [0, Lx] × [0, 1] (2D) or [0, Lx] × [0, Ly] × [0, 1] (3D), periodic horizontally, no-slip
// walls with b = +½ (bottom) and −½ (top).
//
// Numerics: MAC staggered grid (u, v, w on the x-, y-, z-faces, b and p at cell centres),
// uniform horizontally and optionally stretched toward the walls in z (WallNormalGrid: faces
// from a tanh map, centres midway), second-order central fluxes in divergence form on the
// finite volumes of each unknown, Shu–Osher SSP-RK3 with a pressure projection
// (PressureProjection) after every stage, CFL-adaptive time steps clipped onto the driver's
// output times. A DmdaGrid distributes the whole solver; the projection's Poisson problem is a
// KspPoissonSolver on the same DMDA (options prefix "pressure_").
//
// One code for both dimensions (template <int dim>): local arrays are (z, y, x) LayoutRight
// Views over the DMDA's ghosted box (ghost width 1; ny = 1 and no v in 2D), and every y term
// sits in an `if constexpr (dim == 3)`, so 2D evaluates exactly the 2D expressions.
// w(k, j, i) is the bottom face of cell (k, j, i), so w at global k = 0 is the wall (always 0).
// The z metrics are 1D Views over the same ghosted rows: dz (cell thickness), dzc (distance
// between the centres below and above face k), zc (cell centre).
#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include "solvers/common/dmda_grid.hpp"
#include "solvers/rayleigh_benard/pressure_projection.hpp"
#include "solvers/solver.hpp"

namespace surrox::solvers::rayleigh_benard {

// The case-file keys of the solver in dim dimensions.
Schema rayleigh_benard_schema(int dim);

template <int dim>
class RayleighBenardSolver final : public Solver {
  static_assert(dim == 2 || dim == 3);

 public:
  static Schema schema() { return rayleigh_benard_schema(dim); }

  void initialize(const CaseNode& config, Runtime& runtime) override;
  StepReport advance() override;
  // The driver's next output time (output.interval): the step that would pass it lands on it.
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

  // Instantaneous figures of the current state (global over ranks): nu_bottom, nu_top,
  // nu_volume (1 + √(RaPr)⟨wb⟩), nu_kinetic (1 + Pr⟨|∇u|²⟩), nu_thermal (⟨|∇b|²⟩),
  // kinetic_energy (½⟨|u|²⟩), u_rms, max_divergence (max|∇·u|·h/U, h the smallest spacing).
  // Averages are volume-weighted (cells dz, z-faces dzc); wall gradients use the first cell.
  Diagnostics instantaneous() const;
  // Largest stable time step for the current velocity (before the cfl factor).
  double stable_dt() const;
  long pressure_iterations() const { return projection_->poisson().iterations(); }

 private:
  enum class Boundary { kU, kW, kB };
  void exchange(const Field3& field, Boundary kind) const;
  void apply_walls(const Field3& field, Boundary kind) const;
  void set_initial(const CaseNode& config);
  void stage(int s, double dt);
  void project(int s, double dt, double weight);
  void compute_rhs();
  void check_finite() const;
  MacVelocity velocity() const { return {u_, v_, w_}; }

  // Parameters; hy = 1 and ny = 1 in 2D.
  double ra_ = 1e6, pr_ = 1, lx_ = 4, ly_ = 0, end_time_ = 50, cfl_ = 0.5, max_dt_ = 0.05;
  double requested_stop_ = INFINITY;
  double average_from_ = 0, steady_tolerance_ = 0, stretching_ = 0;
  long nx_ = 0, ny_ = 1, nz_ = 0;
  double hx_ = 0, hy_ = 1, hz_min_ = 0, z_diffusion_bound_ = 0, nu_ = 0, kappa_ = 0;
  std::vector<double> zc_global_;  // cell centres, global k = 0 … nz−1 (messages)
  std::vector<double> z_faces_;    // faces, global k = 0 … nz (output)
  mutable double rate_ = 0;        // max(|u|/hx + |v|/hy + |w|/dz) at the start of the step
  MPI_Comm comm_ = MPI_COMM_NULL;
  int ranks_ = 1;

  std::unique_ptr<DmdaGrid> grid_;
  std::unique_ptr<PressureProjection<dim>> projection_;
  // Owned box [xs, xs+xm) × [ys, ys+ym) × [zs, zs+zm); its first cell sits at (oz, oy, ox) in
  // the ghosted arrays of extents (gzm, gym, gxm).
  long xs_ = 0, ys_ = 0, zs_ = 0, xm_ = 0, ym_ = 1, zm_ = 0, gxm_ = 0, gym_ = 1, gzm_ = 0;
  long ox_ = 0, oy_ = 0, oz_ = 0;
  CellBox owned_{};

  Field3 u_, v_, w_, b_, p_, u0_, v0_, w0_, b0_, ru_, rv_, rw_, rb_;
  Metric dz_, dzc_, zc_, iw_;  // per ghosted row; iw = 1/min(dz_{k−1}, dz_k) (CFL of w)

  double time_ = 0, dt_ = 0, residual_ = 0;
  long step_ = 0;
  double last_nu_ = 0, steady_change_ = INFINITY;
  bool steady_ = false;

  // Time averages over [average_from, t] (dt-weighted sums).
  std::map<std::string, double> sums_;
  double averaged_time_ = 0;
  std::vector<std::vector<double>> series_;  // t, dt, instantaneous figures: the Nu(t) series
  std::map<std::string, double> phase_seconds_;
  FieldSet state_;
};

}  // namespace surrox::solvers::rayleigh_benard
