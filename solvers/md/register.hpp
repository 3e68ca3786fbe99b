#pragma once
// Registers the solvers of this family in the solver registry (called by solvers/registry.cpp).
#include "solvers/solver.hpp"

namespace surrox::solvers::md {

void register_solvers(SolverRegistry& registry);

}  // namespace surrox::solvers::md
