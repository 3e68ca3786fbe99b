#include "training/field/field_data_sources.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/case_file.hpp"
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

FieldModelData field_model_data(const surrogates::SurrogateMetadata& metadata,
                                const std::filesystem::path& model) {
  const auto section = metadata.training.find("data");
  if (section == metadata.training.end() || !section->is_object())
    throw InputError(model.string() +
                     ": the model does not record its data section (trained before surrox "
                     "0.2 or exported from Python); retrain it with `surrox train` to use it");
  return {*section, section->value("type", std::string(kDefaultFieldDataSource))};
}

void with_field_model_data(
    const std::string& verb, const std::filesystem::path& model, const std::filesystem::path& data,
    const FieldModelData& recorded,
    const std::function<void(const FieldDataSource&, const CaseNode&)>& use) {
  Schema schema("The data section a field model was trained with.");
  schema.component("data", field_data_sources(), "the data and its channels")
      .default_type(kDefaultFieldDataSource);
  const auto& entry = field_data_sources().at(recorded.type, {model.string()});
  const auto source = entry.make();
  // The path goes in as an override of the model's data section; an error then names that
  // override, which the user never typed: it is said as the DATA argument instead.
  const std::string path = std::filesystem::absolute(data).string();
  const std::string set = "data." + source->data_key() + "=" + path;
  try {
    const io::CaseFile section = io::load_case_text(
        "data: " + recorded.section.dump(), model.string() + " (data section)", schema, {set});
    use(*source, section.root.section("data"));
  } catch (const InputError& e) {
    std::string why = e.what();
    for (const std::string& typed : {"--set " + set, set})
      for (std::size_t at; (at = why.find(typed)) != std::string::npos;)
        why.replace(at, typed.size(), "DATA " + data.string());
    throw InputError(fmt::format(
        "surrox {} {} {}: {}\n(this field model was trained on `{}` data: DATA must be {})", verb,
        model.string(), data.string(), why, recorded.type, entry.doc));
  }
}

}  // namespace surrox::training
