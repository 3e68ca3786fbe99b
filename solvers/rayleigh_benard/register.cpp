#include "solvers/rayleigh_benard/register.hpp"

#include "solvers/rayleigh_benard/rb_solver.hpp"

namespace surrox::solvers::rayleigh_benard {

void register_solvers(SolverRegistry& registry) {
  registry.add("rayleigh_benard",
               {[] { return std::make_unique<RayleighBenardSolver<2>>(); },
                RayleighBenardSolver<2>::schema(),
                "2D Rayleigh–Bénard convection (Boussinesq, MAC grid, SSP-RK3, PETSc pressure "
                "projection)"});
  registry.add("rayleigh_benard_3d",
               {[] { return std::make_unique<RayleighBenardSolver<3>>(); },
                RayleighBenardSolver<3>::schema(),
                "3D Rayleigh–Bénard convection, periodic in x and y (the same solver as "
                "rayleigh_benard in 3D)"});
}

}  // namespace surrox::solvers::rayleigh_benard
