#include "solvers/md/register.hpp"

#include "solvers/md/md_solver.hpp"

namespace surrox::solvers::md {

void register_solvers(SolverRegistry& registry) {
  registry.add("md", {[] { return std::make_unique<MdSolver>(); }, MdSolver::schema(),
                      "molecular dynamics (Lennard-Jones, Stillinger–Weber) with LAMMPS parity"});
}

}  // namespace surrox::solvers::md
