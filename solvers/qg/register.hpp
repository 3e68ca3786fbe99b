#pragma once
#include "solvers/solver.hpp"

namespace surrox::solvers::qg {

// Adds the quasi-geostrophic solver ("qg") to the registry.
void register_solvers(SolverRegistry& registry);

}  // namespace surrox::solvers::qg
