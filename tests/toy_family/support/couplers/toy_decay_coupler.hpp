#pragma once
// The toy family's coupler (its `couplers/` layer), `coupler: {type: toy_decay, model: PATH}`:
// for each case of the sweep, the case's solver (the heat demo) run to its end beside the toy
// model's prediction of ln(peak u) from one number of the case (`parameter`, a key path). A heat
// mode decays as exp(−2π²κt), so ln(peak) is a straight line in the diffusivity κ.
#include "couplers/coupler.hpp"

namespace surrox::toy {

couplers::CouplerRegistry::Entry toy_decay_coupler_entry();

}  // namespace surrox::toy
