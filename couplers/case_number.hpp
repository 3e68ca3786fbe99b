#pragma once
// A numeric value of a validated case by key path ("solver.alpha_deg", "solver.mesh.cells_around"):
// how couplers fill a model's scalar inputs from the case they run.
#include <optional>
#include <string>

#include "core/case_node.hpp"

namespace surrox::couplers {

// nullopt when the path is outside `section`, absent, or not a number.
std::optional<double> case_number(const CaseNode& section, const std::string& key_path);

}  // namespace surrox::couplers
