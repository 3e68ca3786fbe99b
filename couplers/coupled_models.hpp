#pragma once
// The models a coupler section names (`models`: model files relative to the case file, optional
// `labels`), loaded and labelled before any case runs. Shared by the couplers that compare
// models, so a bad path or a damaged file is the same exit-2 error everywhere.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/case_node.hpp"
#include "surrogates/surrogate.hpp"

namespace surrox::couplers {

struct CoupledModel {
  std::string label;  // for summaries: the section's label, else the model's folder name
  std::filesystem::path path;
  std::unique_ptr<surrogates::Surrogate> surrogate;
};

// InputError at the section's keys when a file is missing or not a model, or when `labels` is
// given and its length differs from `models`.
std::vector<CoupledModel> load_models(const CaseNode& section);

}  // namespace surrox::couplers
