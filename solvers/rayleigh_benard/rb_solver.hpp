#pragma once
// Two-dimensional Rayleigh–Bénard convection: the Boussinesq equations in free-fall units
//   ∂u/∂t + u·∇u = −∇p + (Pr/Ra)^½ ∇²u + b ẑ,   ∂b/∂t + u·∇b = (Ra·Pr)^−½ ∇²b,   ∇·u = 0
// on [0, Lx] × [0, 1], periodic in x, no-slip walls with b = +½ (bottom) and −½ (top).
//
// Numerics: MAC staggered grid (u on x-faces, w on z-faces, b and p at cell centres), uniform
// in x and optionally stretched toward the walls in z (detail::WallNormalGrid: faces from a
// tanh map, centres midway), second-order central fluxes in divergence form on the finite
// volumes of each unknown, Shu–Osher SSP-RK3 with a projection after every stage,
// CFL-adaptive time steps clipped onto the driver's output times. The pressure Poisson
// equation is solved by PETSc KSP (options prefix "pressure_") on a DMDA that also
// distributes the whole solver; Kokkos kernels work on the ghosted local arrays.
//
// Local arrays are (z, x) LayoutRight Views over the DMDA's ghosted box (ghost width 1);
// w(k, i) is the bottom face of cell (k, i), so w at global k = 0 is the wall (always 0).
// The z metrics are 1D Views over the same ghosted rows: dz (cell thickness), dzc (distance
// between the centres below and above face k), zc (cell centre).
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "solvers/rayleigh_benard/petsc_handles.hpp"
#include "solvers/solver.hpp"

namespace surrox::solvers::rayleigh_benard {

using Field2 = Kokkos::View<double**, Kokkos::LayoutRight>;
using Metric = Kokkos::View<double*>;

class RayleighBenardSolver final : public Solver {
 public:
  static Schema schema();

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
  Diagnostics monitor() const override;
  std::map<std::string, double> phase_times() const override;
  bool supports_restart() const override { return true; }
  void save_state(io::Hdf5Checkpoint& checkpoint) const override;
  void load_state(const io::Hdf5Checkpoint& checkpoint) override;
  void finalize(const std::filesystem::path& output_dir, nlohmann::json& results) override;

  // Instantaneous figures of the current state (global over ranks): nu_bottom, nu_top,
  // nu_volume (1 + √(RaPr)⟨wb⟩), nu_kinetic (1 + Pr⟨|∇u|²⟩), nu_thermal (⟨|∇b|²⟩),
  // kinetic_energy (½⟨u²+w²⟩), u_rms, max_divergence (max|∇·u|·h/U, h the smallest spacing).
  // Averages are volume-weighted (cells dz, z-faces dzc); wall gradients use the first cell.
  Diagnostics instantaneous() const;
  // Largest stable time step for the current velocity (before the cfl factor).
  double stable_dt() const;
  long pressure_iterations() const { return ksp_iterations_; }

 private:
  enum class Boundary { kU, kW, kB, kP };
  void exchange(Field2 field, Boundary kind) const;
  void apply_walls(Field2 field, Boundary kind) const;
  void stage(int s, double dt);
  void project(int s, double dt, double weight);
  void compute_rhs();
  void check_finite() const;
  double global_sum(double v) const;
  double global_max(double v) const;

  // Parameters.
  double ra_ = 1e6, pr_ = 1, lx_ = 4, lz_ = 1, end_time_ = 50, cfl_ = 0.5, max_dt_ = 0.05;
  double requested_stop_ = INFINITY;
  double average_from_ = 0, steady_tolerance_ = 0, stretching_ = 0;
  long nx_ = 0, nz_ = 0;
  double hx_ = 0, hz_min_ = 0, z_diffusion_bound_ = 0, nu_ = 0, kappa_ = 0;
  std::vector<double> zc_global_;  // cell centres, global k = 0 … nz−1 (messages, output)
  std::vector<double> z_faces_;    // faces, global k = 0 … nz
  double rtol_ = 1e-12, divergence_tolerance_ = 1e-11;
  mutable double rate_ = 0;  // max(|u|/hx + |w|/dz) at the start of the step
  MPI_Comm comm_ = MPI_COMM_NULL;
  int ranks_ = 1;

  // DMDA layout: owned [xs, xs+xm) × [zs, zs+zm), ghosted box from (gxs, gzs).
  DmHandle da_;
  long xs_ = 0, zs_ = 0, xm_ = 0, zm_ = 0, gxs_ = 0, gzs_ = 0, gxm_ = 0, gzm_ = 0;
  long ox_ = 0, oz_ = 0;  // offsets of the owned box inside the ghosted arrays
  VecHandle local_, global_, rhs_;
  std::array<VecHandle, 3> phi_;  // pressure-correction potential per RK stage (warm starts)
  MatHandle matrix_;
  NullSpaceHandle null_space_;
  KspHandle ksp_;

  Field2 u_, w_, b_, p_, u0_, w0_, b0_, ru_, rw_, rb_, phi_local_, div_;
  Metric dz_, dzc_, zc_, iw_;  // per ghosted row; iw = 1/min(dz_{k−1}, dz_k) (CFL of w)

  double time_ = 0, dt_ = 0, residual_ = 0;
  long step_ = 0;
  long ksp_iterations_ = 0, ksp_solves_ = 0;
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
