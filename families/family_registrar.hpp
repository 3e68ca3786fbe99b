#pragma once
// What a surrogate family adds to surrox, through one call per family
// (`register_<family>(FamilyRegistrar&)`, families/<family>.cpp): its training and evaluation
// (`surrox train` picks a family by the config's `family` key, `surrox evaluate` by the model
// file's metadata), the loader of its model files (surrogates/surrogate_model.hpp), the couplers a
// case's `coupler:` section names, the MD pair styles a case's `pair:` section names, and the CLI
// verbs it adds (each verb's config schemas go into docs/case-reference.md through
// `Command::reference_sections`). The registrar writes into the registries the commands read, so a
// family registered before the command line is parsed is part of every command; a name registered
// twice is an Error naming it.
#include <string>

#include "apps/command.hpp"
#include "couplers/coupler.hpp"
#include "solvers/md/potential.hpp"
#include "surrogates/surrogate_model.hpp"
#include "training/surrogate_family.hpp"

namespace surrox::families {

class FamilyRegistrar {
 public:
  // `surrox train` / `surrox evaluate` of a family: the entry's schema is its training config.
  void training(const std::string& family, training::FamilyRegistry::Entry entry);
  // The loader of the family's model files (surrogates::load_surrogate_model, `surrox info`):
  // files whose metadata says "family": `family`.
  void model(const std::string& family, surrogates::ModelLoaderRegistry::Entry entry);
  // A coupler (`coupler: {type: NAME, ...}` in a run case).
  void coupler(const std::string& name, couplers::CouplerRegistry::Entry entry);
  // An MD pair style (`pair: {type: NAME, ...}` in an md case).
  void pair_style(const std::string& name, solvers::md::PotentialRegistry::Entry entry);
  // A CLI verb, listed by `surrox --help` after the built-in commands.
  void command(apps::CommandFactory make);
};

}  // namespace surrox::families
