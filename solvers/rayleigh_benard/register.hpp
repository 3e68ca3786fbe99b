#pragma once
// Registers the solvers of this family in the solver registry (called by solvers/registry.cpp).
#include "solvers/solver.hpp"

namespace surrox::solvers::rayleigh_benard {

void register_solvers(SolverRegistry& registry);

}  // namespace surrox::solvers::rayleigh_benard
