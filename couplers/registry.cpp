#include "couplers/coupler.hpp"

namespace surrox::couplers {

CouplerRegistry& coupler_registry() {
  static CouplerRegistry couplers("coupler");
  return couplers;
}

const CouplerRegistry& registry() { return coupler_registry(); }

}  // namespace surrox::couplers
