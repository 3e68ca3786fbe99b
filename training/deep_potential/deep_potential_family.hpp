#pragma once
// The `deep_potential` surrogate family: DeePMD-kit's se_e2_a potential
// (surrogates/deep_potential/) trained on DeePMD npy systems with DeePMD's energy + force (+
// virial) loss, its prefactor schedule tied to the learning rate and its exponential decay;
// evaluated like `dp test` (energy RMSE per atom, force RMSE, virial RMSE per atom).
#include "training/surrogate_family.hpp"

namespace surrox::training {

// Its training registry entry (families/deep_potential.cpp registers it).
FamilyRegistry::Entry deep_potential_family_entry();

}  // namespace surrox::training
