#pragma once
// Load and validate a warm-start comparison before any case runs: one MPI rank, the models of
// the section, airfoil cases only, and every model fitting every case's inputs (exit code 2
// saying which model and case and why, Surrogate::check_fits).
#include <vector>

#include "core/runtime.hpp"
#include "couplers/coupled_models.hpp"
#include "couplers/coupler.hpp"
#include "couplers/field/surrogate_field.hpp"

namespace surrox::couplers {

struct WarmStartSetup {
  std::vector<CoupledModel> models;
  std::vector<CaseChannels> channels;  // per case: the inputs on its own grid
  long warm_cfl_ramp = -1;             // the warm runs' solver.cfl_ramp; -1: the case's own
  std::vector<std::string> labels() const;
};

WarmStartSetup prepare_warm_start(const Runtime& runtime, const CaseNode& section,
                                  const std::vector<CoupledCase>& cases);

}  // namespace surrox::couplers
