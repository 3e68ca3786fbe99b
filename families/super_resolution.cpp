// The `super_resolution` family: MeshfreeFlowNet on Rayleigh–Bénard runs
// (training/super_resolution/super_resolution_family.hpp) and the coupler that super-resolves a
// coarse run.
#include "couplers/super_resolution/super_resolution.hpp"

#include "families/builtin_families.hpp"
#include "training/super_resolution/super_resolution_family.hpp"
#include "training/super_resolution/super_resolution_model.hpp"
#include "training/super_resolution/super_resolution_surrogate_model.hpp"

namespace surrox::families {

void register_super_resolution(FamilyRegistrar& registrar) {
  registrar.training(training::super_resolution::kFamilyName,
                     training::super_resolution_family_entry());
  registrar.model(training::super_resolution::kFamilyName,
                  training::super_resolution::super_resolution_model_loader());
  registrar.coupler(
      "super_resolution",
      {[] { return std::make_unique<couplers::SuperResolutionCoupler>(); },
       couplers::SuperResolutionCoupler::schema(),
       "a coarse Rayleigh–Bénard run super-resolved by MeshfreeFlowNet vs the fine run"});
}

}  // namespace surrox::families
