// Guarded neural time steps (couplers/neural_step.hpp): the proposal network is trained inside
// the coupler's run; `surrox train` and `surrox evaluate` do not reach it yet.
#include "couplers/neural_step.hpp"

#include "families/builtin_families.hpp"

namespace surrox::families {

void register_neural_step(FamilyRegistrar& registrar) {
  registrar.coupler("neural_step",
                    {[] { return std::make_unique<couplers::NeuralStepCoupler>(); },
                     couplers::NeuralStepCoupler::schema(),
                     "guarded neural time steps with online training for the QG double gyre"});
}

}  // namespace surrox::families
