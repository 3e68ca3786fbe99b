#pragma once
// The `super_resolution` surrogate family: MeshfreeFlowNet trained on Rayleigh–Bénard runs
// (training/super_resolution_training.hpp), evaluated against trilinear interpolation.
#include "training/surrogate_family.hpp"

namespace surrox::training {

void register_super_resolution_family(FamilyRegistry& families);

}  // namespace surrox::training
