#pragma once
// Registers the airfoil solver in the solver registry (called by solvers/registry.cpp).
#include "solvers/solver.hpp"

namespace surrox::solvers::airfoil {

void register_solvers(SolverRegistry& registry);

}  // namespace surrox::solvers::airfoil
