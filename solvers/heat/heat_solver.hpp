#pragma once
// The heat equation ∂u/∂t = κ∇²u on a box with u = 0 on the boundary, by forward-Euler time
// steps and the second-order central Laplacian (FTCS). Started from a product of sine modes,
// it has the exact solution u = A·Π sin(m_d π x_d / L_d)·exp(−κπ² Σ (m_d/L_d)² t), so every
// run reports its own error: the demo case of the foundation and a template for solvers.
#include "mesh/cartesian_grid.hpp"
#include "solvers/solver.hpp"

namespace surrox::solvers::heat {

class HeatSolver final : public Solver {
 public:
  static Schema schema();

  void initialize(const CaseNode& config, Runtime& runtime) override;
  StepReport advance() override;
  bool finished() const override { return step_ >= steps_; }
  double progress() const override { return std::min(1.0, time_ / end_time_); }
  double residual() const override { return residual_; }
  double time() const override { return time_; }
  long step() const override { return step_; }
  FieldSet& state() override { return state_; }
  Diagnostics diagnostics() const override;
  io::MeshData output_mesh() const override;
  Diagnostics monitor() const override;
  bool supports_restart() const override { return true; }
  void save_state(io::Hdf5Checkpoint& checkpoint) const override;
  void load_state(const io::Hdf5Checkpoint& checkpoint) override;

  // The exact solution at time t on the grid.
  Field3 exact(double t) const;
  double decay_rate() const;  // κπ² Σ (m_d/L_d)²
  double stable_dt() const;   // the FTCS limit h²/(2 d κ) on the finest direction

 private:
  mesh::CartesianGrid grid_;
  double kappa_ = 1, end_time_ = 0, dt_ = 0, amplitude_ = 1;
  std::array<long, 3> modes_{1, 1, 1};
  double time_ = 0, residual_ = 0;
  long step_ = 0, steps_ = 0;
  Field3 u_, next_;
  FieldSet state_;
};

}  // namespace surrox::solvers::heat
