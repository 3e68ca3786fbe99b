#include "surrogates/deep_potential/model_file.hpp"

#include <string>

#include "core/error.hpp"
#include "surrogates/model_file.hpp"

namespace surrox::surrogates::deep_potential {

namespace {

// DeePMD-kit's name of the descriptor: se_e2_a, or its `hybrid` with the optional parts.
std::string descriptor_name(const SeE2aConfig& c) {
  std::string parts = "se_e2_a";
  if (c.three_body.enabled()) parts += " + se_e3";
  if (c.radial()) parts += " + se_e2_r";
  return c.three_body.enabled() || c.radial() ? "hybrid: " + parts : parts;
}

}  // namespace

nlohmann::json model_metadata(SeE2aModel& model, const nlohmann::json& training) {
  nlohmann::json metadata = {{"family", kFamilyName},
                             {"format_version", 1},
                             {"model", {{"descriptor", descriptor_name(model->config())}}},
                             {"config", model->config().to_json()},
                             {"training", training}};
  if (model->compressed()) metadata["compression"] = model->table_params().to_json();
  if (model->three_body_compressed())
    metadata["compression_three_body"] = model->three_body_table_params().to_json();
  return metadata;
}

void save_model(const std::filesystem::path& path, SeE2aModel& model,
                const nlohmann::json& training) {
  torch::serialize::OutputArchive archive;
  model->save(archive);
  write_model_archive(path, archive, model_metadata(model, training));
}

SeE2aModel load_model(const std::filesystem::path& path, nlohmann::json* metadata) {
  const nlohmann::json meta = read_model_metadata(path);
  if (meta.value("family", "") != kFamilyName)
    throw InputError(path.string() + ": not a deep-potential model (family '" +
                     meta.value("family", "field") + "')");
  SeE2aModel model(nullptr);
  try {
    model = SeE2aModel(SeE2aConfig::from_json(meta.at("config")));
    // A compressed model: create its table buffers (shapes from the metadata), then load them.
    if (meta.contains("compression"))
      model->compress(TableParams::from_json(meta.at("compression")), false);
    if (meta.contains("compression_three_body"))
      model->compress_three_body(TableParams::from_json(meta.at("compression_three_body")), false);
    torch::serialize::InputArchive archive;
    archive.load_from(path.string());
    model->load(archive);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path.string() + ": corrupt deep-potential metadata: " + e.what());
  } catch (const c10::Error& e) {
    throw InputError(path.string() +
                     ": corrupt deep-potential weights: " + e.what_without_backtrace());
  }
  if (metadata) *metadata = meta;
  return model;
}

}  // namespace surrox::surrogates::deep_potential
