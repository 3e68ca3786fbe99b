#include "solvers/airfoil/register.hpp"

#include "solvers/airfoil/airfoil_solver.hpp"

namespace surrox::solvers::airfoil {

void register_solvers(SolverRegistry& registry) {
  registry.add(
      "airfoil",
      {[] { return std::make_unique<AirfoilSolver>(); }, AirfoilSolver::schema(),
       "steady 2D Euler / laminar Navier–Stokes / RANS flow past an airfoil (O-grid, Roe + "
       "MUSCL, implicit smoothers, multigrid)"});
}

}  // namespace surrox::solvers::airfoil
