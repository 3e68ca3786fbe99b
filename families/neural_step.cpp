// Guarded neural time steps: the proposal network trained on a solver's snapshots (`surrox
// train`/`evaluate`, training/neural_step/) and the coupler that runs it with the guard and
// online training (couplers/neural_step.hpp).
#include "couplers/neural_step/neural_step.hpp"

#include "families/builtin_families.hpp"
#include "surrogates/neural_step/neural_step_network.hpp"
#include "surrogates/neural_step/neural_step_surrogate_model.hpp"
#include "training/neural_step/neural_step_family.hpp"

namespace surrox::families {

void register_neural_step(FamilyRegistrar& registrar) {
  registrar.training(surrogates::neural_step::kFamily,
                     training::neural_step::neural_step_family_entry());
  registrar.model(surrogates::neural_step::kFamily,
                  surrogates::neural_step::neural_step_model_loader());
  registrar.coupler("neural_step",
                    {[] { return std::make_unique<couplers::NeuralStepCoupler>(); },
                     couplers::NeuralStepCoupler::schema(),
                     "guarded neural time steps with online training for the QG double gyre"});
}

}  // namespace surrox::families
