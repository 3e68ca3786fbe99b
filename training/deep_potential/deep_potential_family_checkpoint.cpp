#include "training/deep_potential/deep_potential_family_checkpoint.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/yaml_json.hpp"
#include "surrogates/deep_potential/model_file.hpp"

namespace surrox::training {
namespace {

constexpr const char* kDpCheckpointKind = "training_checkpoint";

// The key path of the first difference between two JSON values ("" when equal).
std::string first_difference(const nlohmann::json& a, const nlohmann::json& b,
                             const std::string& path) {
  if (a.is_object() && b.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it) {
      const std::string key = path.empty() ? it.key() : path + "." + it.key();
      if (!b.contains(it.key())) return key;
      const std::string d = first_difference(it.value(), b.at(it.key()), key);
      if (!d.empty()) return d;
    }
    for (auto it = b.begin(); it != b.end(); ++it)
      if (!a.contains(it.key())) return path.empty() ? it.key() : path + "." + it.key();
    return "";
  }
  return a == b ? "" : (path.empty() ? "(root)" : path);
}

}  // namespace

nlohmann::json dp_checkpoint_identity(const CaseNode& root) {
  nlohmann::json training = yaml_to_json(root.section("training").yaml());
  // Applied after the last step only, so a finished run may be resumed to apply it.
  if (training.is_object()) training.erase("change_bias_after_training");
  return {{"model", yaml_to_json(root.section("model").yaml())},
          {"data", yaml_to_json(root.section("data").yaml())},
          {"training", training}};
}

void write_dp_checkpoint_state(torch::serialize::OutputArchive& archive,
                               const nlohmann::json& identity, const DpTrainingState& state) {
  const nlohmann::json metadata = {{"family", surrogates::deep_potential::kFamilyName},
                                   {"kind", kDpCheckpointKind},
                                   {"format_version", 1},
                                   {"config", identity},
                                   {"step", state.step},
                                   {"rng", state.rng},
                                   {"running_loss", state.running_loss},
                                   {"running", state.running},
                                   {"metrics_csv", state.csv},
                                   {"seconds", state.seconds}};
  archive.write("metadata", c10::IValue(metadata.dump()));
}

DpTrainingState read_dp_checkpoint_state(torch::serialize::InputArchive& archive,
                                         const std::string& source,
                                         const nlohmann::json& identity) {
  nlohmann::json meta;
  try {
    c10::IValue text;
    if (!archive.try_read("metadata", text) || !text.isString())
      throw InputError("--resume " + source +
                       ": not a deep-potential training checkpoint (no deep_potential metadata; "
                       "a checkpoint of another family?)");
    meta = nlohmann::json::parse(text.toStringRef());
  } catch (const c10::Error&) {
    throw InputError("--resume " + source + ": not a surrox training checkpoint");
  } catch (const nlohmann::json::exception& e) {
    throw InputError("--resume " + source + ": corrupt checkpoint metadata: " + e.what());
  }
  const std::string family = meta.value("family", "field");
  if (family != surrogates::deep_potential::kFamilyName)
    throw InputError(fmt::format("--resume {}: a checkpoint of family '{}', not deep_potential",
                                 source, family));
  if (meta.value("kind", "") != kDpCheckpointKind)
    throw InputError("--resume " + source +
                     ": a deep-potential model file, not a training checkpoint (give the "
                     "run's checkpoint.pt)");
  const std::string differs =
      first_difference(identity, meta.value("config", nlohmann::json()), "");
  if (!differs.empty())
    throw InputError(fmt::format(
        "--resume {}: the checkpoint was written for another config ({} differs); resume with "
        "the config it was trained with",
        source, differs));
  DpTrainingState state;
  try {
    state.step = meta.at("step");
    state.rng = meta.at("rng");
    state.running_loss = meta.at("running_loss");
    state.running = meta.at("running");
    state.csv = meta.at("metrics_csv");
    state.seconds = meta.at("seconds");
  } catch (const nlohmann::json::exception& e) {
    throw InputError("--resume " + source + ": corrupt checkpoint metadata: " + e.what());
  }
  return state;
}

}  // namespace surrox::training
