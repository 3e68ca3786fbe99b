#include "solvers/airfoil/register.hpp"
#include "solvers/heat/heat_solver.hpp"
#include "solvers/md/register.hpp"
#include "solvers/qg/register.hpp"
#include "solvers/rayleigh_benard/register.hpp"
#include "solvers/solver.hpp"

namespace surrox::solvers {
namespace {

void register_all(SolverRegistry& solvers) {
  solvers.add("heat",
              {[] { return std::make_unique<heat::HeatSolver>(); }, heat::HeatSolver::schema(),
               "explicit 2D/3D heat equation with an exact solution (the demo solver)"});
  md::register_solvers(solvers);
  rayleigh_benard::register_solvers(solvers);
  airfoil::register_solvers(solvers);
  qg::register_solvers(solvers);
}

}  // namespace

const SolverRegistry& registry() {
  static const SolverRegistry solvers = [] {
    SolverRegistry r("solver");
    register_all(r);
    return r;
  }();
  return solvers;
}

}  // namespace surrox::solvers
