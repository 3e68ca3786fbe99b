#pragma once
// The initial vorticity fields a QG case can start from (solver.initial), by name: each fills ω
// on this rank's interior nodes; ψ follows by the solver's own inversion.
#include <string>
#include <vector>

#include "core/case_node.hpp"
#include "core/field_set.hpp"
#include "solvers/common/cell_loops.hpp"

namespace surrox::solvers::qg {

// Where this rank's interior nodes lie: node (k, i) of the owned box sits at x = (x0 + i + 1) hx
// and (z0 + k + 1) hy from the southern wall (y = −ly/2 + (z0 + k + 1) hy).
struct QgNodes {
  double hx = 0, hy = 0, lx = 0, ly = 0;
  long x0 = 0, z0 = 0;
  CellBox owned{};
};

// The registered names, for the schema's choice.
std::vector<std::string> qg_initial_vorticity_names();
// Fills ω (owned nodes) with the named initial field; the name was validated by the schema.
void set_qg_initial_vorticity(const std::string& name, const CaseNode& config, const QgNodes& nodes,
                              const Field3& omega);

}  // namespace surrox::solvers::qg
