// The `field` family: per-cell fields of a steady solver's sweep (training/field/field_family.hpp)
// and the warm-start coupler that starts the solver from their prediction.
#include "couplers/field/warm_start.hpp"
#include "families/builtin_families.hpp"
#include "surrogates/field_model.hpp"
#include "training/field/field_family.hpp"

namespace surrox::families {

void register_field(FamilyRegistrar& registrar) {
  registrar.training(surrogates::kFieldFamily, training::field_family_entry());
  registrar.model(surrogates::kFieldFamily, surrogates::field_model_loader());
  registrar.coupler(
      "warm_start",
      {[] { return std::make_unique<couplers::WarmStart>(); }, couplers::WarmStart::schema(),
       "cold start vs. warm starts from surrogate predictions of the steady field (airfoil)"});
}

}  // namespace surrox::families
