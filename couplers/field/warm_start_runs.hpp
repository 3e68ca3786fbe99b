#pragma once
// The runs of the warm-start comparison on one case: the solver from the free stream (cold), then
// per model the prediction on the case's grid, the guard, the surrogate-only forces of the
// predicted field, and the solver from that field to the same criterion (warm).
#include <vector>

#include "core/runtime.hpp"
#include "couplers/coupled_models.hpp"
#include "couplers/coupler.hpp"
#include "couplers/field/surrogate_field.hpp"
#include "couplers/field/warm_start_records.hpp"
#include "solvers/steady_flow_solver.hpp"

namespace surrox::couplers {

// The warm runs grow their CFL number over `warm_cfl_ramp` cycles (-1: the case's cfl_ramp).
CaseRecord run_warm_start_case(Runtime& runtime, const CoupledCase& c, const CaseChannels& channels,
                               std::vector<CoupledModel>& models, long warm_cfl_ramp);

// Starts `solver` from `field` (guarded). The solver sets its far-field vortex from the field's
// own lift, so a converged field restarts converged; no cycle is spent on putting it in place.
void start_from_field(solvers::SteadyFlowSolver& solver, const PrimitiveField& field);

}  // namespace surrox::couplers
