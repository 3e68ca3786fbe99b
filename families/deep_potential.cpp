// The `deep_potential` family: DeePMD-kit's se_e2_a trained on MD frames
// (training/deep_potential/deep_potential_family.hpp), the MD pair style `deep` that runs it with
// model deviation (couplers/deep_potential/deep_potential_pair.hpp), and its verbs: `surrox
// compress` (tabulated embedding nets) and `surrox concurrent-learn` (DP-GEN's loop).
#include "couplers/deep_potential/deep_potential_pair.hpp"
#include "families/builtin_families.hpp"
#include "surrogates/deep_potential/deep_potential_model.hpp"
#include "surrogates/deep_potential/model_file.hpp"
#include "training/deep_potential/deep_potential_family.hpp"

namespace surrox::families {

void register_deep_potential(FamilyRegistrar& registrar) {
  registrar.training(surrogates::deep_potential::kFamilyName,
                     training::deep_potential_family_entry());
  registrar.model(surrogates::deep_potential::kFamilyName,
                  surrogates::deep_potential::deep_potential_model_loader());
  registrar.pair_style("deep", couplers::deep_potential_pair_entry());
  registrar.command(apps::make_compress_command);
  registrar.command(apps::make_concurrent_learn_command);
}

}  // namespace surrox::families
