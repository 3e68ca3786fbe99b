#pragma once
// Where the `field` family's data comes from, selected by the config's `data.type`: `sweep`
// (a surrox sweep dataset, training/field/field_dataset.hpp; the default, so configs without a type
// keep working) or `collection` (VTK/ParaView files or OpenFOAM case folders,
// training/field/collection_dataset.hpp). Each
// source builds the same FieldDataset for training, and for `surrox evaluate` every case of a
// new DATA path normalised with the model's statistics.
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "core/case_node.hpp"
#include "core/registry.hpp"
#include "surrogates/input_description.hpp"
#include "surrogates/normalization.hpp"
#include "surrogates/surrogate.hpp"
#include "training/field/field_dataset.hpp"

namespace surrox::training {

class FieldDataSource {
 public:
  virtual ~FieldDataSource() = default;
  virtual FieldDataset load(const CaseNode& section, surrogates::GridSamples samples) const = 0;
  // Every case in `test`, normalised with a trained model's statistics; the channels must be
  // the model's.
  virtual FieldDataset load_all(const CaseNode& section, surrogates::GridSamples samples,
                                const surrogates::Normalization& inputs,
                                const surrogates::Normalization& outputs) const = 0;
  // The key that `surrox evaluate MODEL DATA` sets to DATA ("path", "files").
  virtual std::string data_key() const = 0;
};

using FieldDataSources = Registry<FieldDataSource>;
const FieldDataSources& field_data_sources();
inline constexpr const char* kDefaultFieldDataSource = "sweep";

// The data section a trained field model records (its metadata's training.data) and its type
// (sweep for models from before data types). InputError naming `model` when it records none.
struct FieldModelData {
  nlohmann::json section;
  std::string type;
};
FieldModelData field_model_data(const surrogates::SurrogateMetadata& metadata,
                                const std::filesystem::path& model);

// How `surrox evaluate|predict MODEL DATA` reads DATA: the model's data section with its path
// replaced by DATA (same channels, parameters, dtype and convergence rule), validated and given
// to `use` with the source of its type. An InputError from either is said as the command line
// the user typed (`verb` MODEL DATA, not the override surrox made), with what DATA must be.
void with_field_model_data(const std::string& verb, const std::filesystem::path& model,
                           const std::filesystem::path& data, const FieldModelData& recorded,
                           const std::function<void(const FieldDataSource&, const CaseNode&)>& use);

}  // namespace surrox::training
