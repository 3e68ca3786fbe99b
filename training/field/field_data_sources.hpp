#pragma once
// Where the `field` family's data comes from, selected by the config's `data.type`: `sweep`
// (a surrox sweep dataset, training/field/field_dataset.hpp; the default, so configs without a type
// keep working) or `collection` (VTK/ParaView files or OpenFOAM case folders,
// training/field/collection_dataset.hpp). Each
// source builds the same FieldDataset for training, and for `surrox evaluate` every case of a
// new DATA path normalised with the model's statistics.
#include <string>

#include "core/case_node.hpp"
#include "core/registry.hpp"
#include "surrogates/input_description.hpp"
#include "surrogates/normalization.hpp"
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

}  // namespace surrox::training
