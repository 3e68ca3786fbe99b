#include "solvers/qg/register.hpp"

#include "solvers/qg/qg_solver.hpp"

namespace surrox::solvers::qg {

void register_solvers(SolverRegistry& registry) {
  registry.add("qg", {[] { return std::make_unique<QgSolver>(); }, QgSolver::schema(),
                      "wind-driven quasi-geostrophic (barotropic β-plane) double gyre: Arakawa "
                      "Jacobian, SSP-RK3, FFTW sine-transform Poisson solve"});
}

}  // namespace surrox::solvers::qg
