#pragma once
// The pressure projection of the MAC grid: the face velocities u* of a Runge–Kutta stage become
// discretely divergence-free, u = u* − G φ, where −D G φ = −D u* (the cells' net outflow) is the
// Poisson problem of a PoissonSolver, and the pressure is p = φ/(weight dt).
//
// Fields are the solver's ghosted (z, y, x) Views on a DmdaGrid (v unused in 2D); w(k, j, i) is
// the bottom face of cell (k, j, i), so w at global k = 0 is the wall and stays 0. dz and dzc
// are the wall-normal metrics per ghosted z row (cell thickness; distance between the centres
// below and above face k).
#include <memory>

#include "solvers/common/dmda_grid.hpp"
#include "solvers/common/poisson_solver.hpp"

namespace surrox::solvers::rayleigh_benard {

using Metric = Kokkos::View<double*>;

struct MacVelocity {
  Field3 u, v, w;
};

template <int dim>
class PressureProjection {
 public:
  // grid must outlive the projection. hy is 1 in 2D; h_min is the smallest spacing.
  PressureProjection(const DmdaGrid& grid, Metric dz, Metric dzc, double hx, double hy,
                     double h_min, std::unique_ptr<PoissonSolver> poisson,
                     double divergence_tolerance);

  // Solves for the potential φ of stage `slot` from the divergence of `velocity`. rate bounds
  // U/h from above (max |u|/hx + |v|/hy + |w|/dz): an iterative solve stops once max|∇·u| after
  // the correction is below divergence_tolerance · rate.
  PoissonReport solve(const MacVelocity& velocity, int slot, double rate);
  // u ← u − G φ on the owned faces; p ← φ · to_pressure unless to_pressure is 0. The halo of
  // the velocity is stale afterwards (the caller exchanges it with its wall conditions).
  void correct(const MacVelocity& velocity, const Field3& p, double to_pressure) const;

  PoissonSolver& poisson() { return *poisson_; }
  const PoissonSolver& poisson() const { return *poisson_; }

 private:
  const DmdaGrid& grid_;
  Metric dz_, dzc_;
  double hx_, hy_, area_;
  std::unique_ptr<PoissonSolver> poisson_;
  double divergence_tolerance_;
  Field3 outflow_, phi_;
};

}  // namespace surrox::solvers::rayleigh_benard
