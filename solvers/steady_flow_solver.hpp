#pragma once
// A solver that iterates a 2D compressible flow on a structured grid to a steady state, seen
// from a coupler that starts it from a predicted field: set the initial primitive field, advance
// until finished() (the criterion), read the residual, the forces and the converged field.
// Warm starts are written against this, not against one solver.
#include <array>

#include "mesh/curvilinear_grid.hpp"
#include "solvers/solver.hpp"

namespace surrox::solvers {

class SteadyFlowSolver : public Solver {
 public:
  // The relative residual at which a run counts as converged (its residual criterion).
  virtual double convergence_criterion() const = 0;
  // Whether the current state meets every stopping criterion of the case (the residual drop
  // and/or a Cauchy test on forces); finished() without it means the iteration limit.
  virtual bool converged() const = 0;
  // Replaces the state with ρ, u, v, p on the ni × nj cells (host, whole grid; collective).
  virtual void set_initial_primitive(const mesh::HostMatrix& rho, const mesh::HostMatrix& u,
                                     const mesh::HostMatrix& v, const mesh::HostMatrix& p) = 0;
  // After set_initial_primitive: the turbulence model's state from a kinematic eddy viscosity
  // ν_t on the same cells (collective). False when the solver has no turbulence model.
  virtual bool set_initial_eddy_viscosity(const mesh::HostMatrix& nu_t) {
    (void)nu_t;
    return false;
  }
  // ρ, u, v, p of the current state as host ni × nj arrays, whole grid (collective).
  virtual std::array<mesh::HostMatrix, 4> primitive_host() const = 0;
  // Evaluates the residual and the forces of the current state without advancing (collective).
  virtual void compute_residual() = 0;
  // Force coefficients of the last residual evaluation: at least cl and cd.
  virtual Diagnostics coefficients() const = 0;
};

}  // namespace surrox::solvers
