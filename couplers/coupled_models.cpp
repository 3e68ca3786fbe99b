#include "couplers/coupled_models.hpp"

#include <fmt/format.h>

#include "core/case_path.hpp"
#include "core/error.hpp"

namespace surrox::couplers {

std::vector<CoupledModel> load_models(const CaseNode& section) {
  const auto paths = section.strings("models");
  const auto labels = section.strings("labels");
  if (!labels.empty() && labels.size() != paths.size())
    section.fail("labels", fmt::format("{} labels for {} models", labels.size(), paths.size()));
  std::vector<CoupledModel> models;
  for (std::size_t m = 0; m < paths.size(); ++m) {
    const std::filesystem::path path = resolve_case_path(section, paths[m]);
    if (!std::filesystem::exists(path))
      section.fail("models", "no such model file: " + path.string());
    CoupledModel model;
    model.path = path;
    model.label = labels.empty() ? path.parent_path().filename().string() : labels[m];
    try {
      model.surrogate = surrogates::Surrogate::load(path);
    } catch (const InputError& e) {
      throw InputError(path.string() + ": " + e.what(), section.context("models"));
    }
    models.push_back(std::move(model));
  }
  return models;
}

}  // namespace surrox::couplers
