#include "training/field/field_data_sources.hpp"

#include "training/field/collection_dataset.hpp"

namespace surrox::training {
namespace {

class SweepDataSource final : public FieldDataSource {
 public:
  FieldDataset load(const CaseNode& section, surrogates::GridSamples samples) const override {
    return FieldDataset::load(section, samples);
  }
  FieldDataset load_all(const CaseNode& section, surrogates::GridSamples samples,
                        const surrogates::Normalization& inputs,
                        const surrogates::Normalization& outputs) const override {
    return FieldDataset::load_all(section, samples, inputs, outputs);
  }
  std::string data_key() const override { return "path"; }
};

class CollectionDataSource final : public FieldDataSource {
 public:
  FieldDataset load(const CaseNode& section, surrogates::GridSamples samples) const override {
    return CollectionDataset::load(section, samples);
  }
  FieldDataset load_all(const CaseNode& section, surrogates::GridSamples samples,
                        const surrogates::Normalization& inputs,
                        const surrogates::Normalization& outputs) const override {
    return CollectionDataset::load_all(section, samples, inputs, outputs);
  }
  std::string data_key() const override { return "files"; }
};

void register_field_data_sources(FieldDataSources& sources) {
  sources.add("sweep", {[] { return std::make_unique<SweepDataSource>(); }, FieldDataset::schema(),
                        "a surrox sweep dataset (the cases of a `sweep` run)"});
  sources.add("collection",
              {[] { return std::make_unique<CollectionDataSource>(); }, CollectionDataset::schema(),
               "a collection of VTK/ParaView files or OpenFOAM case folders (a folder with "
               "system/controlDict): a manifest, a glob, a folder, one VTK file or one case "
               "folder"});
}

}  // namespace

const FieldDataSources& field_data_sources() {
  static const FieldDataSources sources = [] {
    FieldDataSources s("field data source");
    register_field_data_sources(s);
    return s;
  }();
  return sources;
}

}  // namespace surrox::training
