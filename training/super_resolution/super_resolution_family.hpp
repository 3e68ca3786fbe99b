#pragma once
// The `super_resolution` surrogate family: MeshfreeFlowNet trained on Rayleigh–Bénard runs
// (training/super_resolution/super_resolution_training.hpp), evaluated against trilinear
// interpolation.
#include "training/surrogate_family.hpp"

namespace surrox::training {

// Its training registry entry (families/super_resolution.cpp registers it).
FamilyRegistry::Entry super_resolution_family_entry();

}  // namespace surrox::training
