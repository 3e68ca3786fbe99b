#include "couplers/coupler.hpp"
#include "couplers/neural_step.hpp"
#include "couplers/super_resolution.hpp"
#include "couplers/warm_start.hpp"

namespace surrox::couplers {

const CouplerRegistry& registry() {
  static const CouplerRegistry couplers = [] {
    CouplerRegistry r("coupler");
    r.add("warm_start",
          {[] { return std::make_unique<WarmStart>(); }, WarmStart::schema(),
           "cold start vs. warm starts from surrogate predictions of the steady field (airfoil)"});
    r.add("super_resolution",
          {[] { return std::make_unique<SuperResolutionCoupler>(); },
           SuperResolutionCoupler::schema(),
           "a coarse Rayleigh–Bénard run super-resolved by MeshfreeFlowNet vs the fine run"});
    r.add("neural_step",
          {[] { return std::make_unique<NeuralStepCoupler>(); }, NeuralStepCoupler::schema(),
           "guarded neural time steps with online training for the QG double gyre"});
    return r;
  }();
  return couplers;
}

}  // namespace surrox::couplers
