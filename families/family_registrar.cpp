#include "families/family_registrar.hpp"

#include "core/error.hpp"

namespace surrox::families {

void FamilyRegistrar::training(const std::string& family, training::FamilyRegistry::Entry entry) {
  training::surrogate_family_registry().add(family, std::move(entry));
}

void FamilyRegistrar::model(const std::string& family,
                            surrogates::ModelLoaderRegistry::Entry entry) {
  surrogates::model_loader_registry().add(family, std::move(entry));
}

void FamilyRegistrar::coupler(const std::string& name, couplers::CouplerRegistry::Entry entry) {
  couplers::coupler_registry().add(name, std::move(entry));
}

void FamilyRegistrar::pair_style(const std::string& name,
                                 solvers::md::PotentialRegistry::Entry entry) {
  solvers::md::register_potential(name, std::move(entry.make), std::move(entry.schema),
                                  std::move(entry.doc));
}

void FamilyRegistrar::command(apps::CommandFactory make) {
  const std::string name = make()->name();
  for (const auto& command : apps::make_commands())
    if (command->name() == name) throw Error("CLI command '" + name + "' is registered twice");
  apps::family_commands().push_back(std::move(make));
}

}  // namespace surrox::families
