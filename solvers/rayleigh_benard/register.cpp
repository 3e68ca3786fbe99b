#include "solvers/rayleigh_benard/register.hpp"

#include "solvers/rayleigh_benard/rb3d_solver.hpp"
#include "solvers/rayleigh_benard/rb_solver.hpp"

namespace surrox::solvers::rayleigh_benard {

void register_solvers(SolverRegistry& registry) {
  registry.add(
      "rayleigh_benard",
      {[] { return std::make_unique<RayleighBenardSolver>(); }, RayleighBenardSolver::schema(),
       "2D Rayleigh–Bénard convection (Boussinesq, MAC grid, SSP-RK3, PETSc pressure projection)"});
  registry.add(
      "rayleigh_benard_3d",
      {[] { return std::make_unique<RayleighBenard3dSolver>(); }, RayleighBenard3dSolver::schema(),
       "3D Rayleigh–Bénard convection, periodic in x and y (same scheme as rayleigh_benard)"});
}

}  // namespace surrox::solvers::rayleigh_benard
