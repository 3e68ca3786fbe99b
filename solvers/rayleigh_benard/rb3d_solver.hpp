#pragma once
// Three-dimensional Rayleigh–Bénard convection: the same equations, units, staggering and
// time stepping as RayleighBenardSolver (rb_solver.hpp), on [0, Lx] × [0, Ly] × [0, 1],
// periodic in x and y, no-slip walls at z = 0 and 1, optionally stretched toward the walls in
// z (the `stretching` key, as in 2D). Local arrays are (z, y, x) LayoutRight
// Views over the ghosted box of a 3D DMDA (ghost width 1); w(k, j, i) is the bottom face of
// cell (k, j, i). The pressure solve defaults to a direct factorisation as in 2D (fine up to
// ~10⁵ cells; choose gamg or hypre for larger 3D grids).
#include <array>
#include <cmath>
#include <vector>

#include "solvers/rayleigh_benard/petsc_handles.hpp"
#include "solvers/solver.hpp"

namespace surrox::solvers::rayleigh_benard {

using Metric = Kokkos::View<double*>;

class RayleighBenard3dSolver final : public Solver {
 public:
  static Schema schema();

  void initialize(const CaseNode& config, Runtime& runtime) override;
  StepReport advance() override;
  // The driver's next output time (output.interval): the step that would pass it lands on it.
  void limit_step_to(double time) override { requested_stop_ = time; }
  bool finished() const override { return time_ >= end_time_ * (1 - 1e-14); }
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

  // nu_bottom, nu_top, nu_volume, nu_kinetic, nu_thermal, kinetic_energy, u_rms, max_divergence.
  Diagnostics instantaneous() const;

 private:
  enum class Boundary { kU, kW, kB, kP };
  void exchange(Field3 field, Boundary kind) const;
  void apply_walls(Field3 field, Boundary kind) const;
  void stage(int s, double dt);
  void project(int s, double dt, double weight);
  double stable_dt() const;

  double ra_ = 1e5, pr_ = 1, lx_ = 2, ly_ = 2, end_time_ = 10, cfl_ = 0.8, max_dt_ = 0.05;
  double requested_stop_ = INFINITY;
  double average_from_ = 0, stretching_ = 0;
  long nx_ = 0, ny_ = 0, nz_ = 0;
  double hx_ = 0, hy_ = 0, hz_min_ = 0, z_diffusion_bound_ = 0, nu_ = 0, kappa_ = 0;
  std::vector<double> z_faces_;  // global k = 0 … nz
  double rtol_ = 1e-12, divergence_tolerance_ = 1e-11;
  mutable double rate_ = 0;
  MPI_Comm comm_ = MPI_COMM_NULL;

  DmHandle da_;
  long xs_ = 0, ys_ = 0, zs_ = 0, xm_ = 0, ym_ = 0, zm_ = 0, gxm_ = 0, gym_ = 0, gzm_ = 0;
  long ox_ = 0, oy_ = 0, oz_ = 0;
  VecHandle local_, global_, rhs_;
  std::array<VecHandle, 3> phi_;
  MatHandle matrix_;
  NullSpaceHandle null_space_;
  KspHandle ksp_;

  Field3 u_, v_, w_, b_, p_, u0_, v0_, w0_, b0_, ru_, rv_, rw_, rb_, phi_local_, div_;
  Metric dz_, dzc_, zc_, iw_;  // per ghosted z row, as in the 2D solver

  double time_ = 0, dt_ = 0, residual_ = 0;
  long step_ = 0, ksp_iterations_ = 0, ksp_solves_ = 0;
  std::map<std::string, double> sums_;
  double averaged_time_ = 0;
  mutable std::map<std::string, double> phase_seconds_;
  FieldSet state_;
};

}  // namespace surrox::solvers::rayleigh_benard
