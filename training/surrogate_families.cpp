#include <yaml-cpp/yaml.h>

#include "core/error.hpp"
#include "training/surrogate_family.hpp"

namespace surrox::training {

FamilyRegistry& surrogate_family_registry() {
  static FamilyRegistry registry("surrogate family");
  return registry;
}

const FamilyRegistry& surrogate_families() { return surrogate_family_registry(); }

void SurrogateFamily::predict(const PredictRequest& request, nlohmann::json&) {
  throw InputError(request.model.string() + ": a model of family '" + request.family +
                   "', which has no `surrox predict`; " + kPredictAccepts);
}

Schema runtime_config_schema() {
  Schema runtime("Threads and logging.");
  runtime.integer("threads", "LibTorch threads per rank; 0: cores on the node / ranks on it")
      .at_least(0)
      .fallback("0");
  runtime.choice("log_level", {"trace", "debug", "info", "warn", "error", "off"}, "log level")
      .fallback("info");
  return runtime;
}

Schema train_config_schema(const std::string& family) {
  const auto& families = surrogate_families();
  Schema schema = families.schema_of(family);
  schema
      .choice("family", families.names(),
              "the surrogate family: what is trained on what data (docs/architecture.md)")
      .fallback(kDefaultFamily);
  return schema;
}

std::string config_family(const std::filesystem::path& config,
                          const std::vector<std::string>& overrides) {
  std::string family = kDefaultFamily;
  ErrorContext where{config.string(), 0, 0, "family"};
  for (const auto& o : overrides)
    if (o.rfind("family=", 0) == 0) {
      family = o.substr(7);
      where = {"--set", 0, 0, "family"};
    }
  if (where.file == config.string()) {
    // A file that does not parse is left to load_case, which reports it with its line.
    try {
      const YAML::Node root = YAML::LoadFile(config.string());
      if (root.IsMap() && root["family"]) {
        family = root["family"].Scalar();
        where.line = root["family"].Mark().line + 1;
        where.column = root["family"].Mark().column + 1;
      }
    } catch (const YAML::Exception&) {
    }
  }
  surrogate_families().at(family, where);
  return family;
}

}  // namespace surrox::training
