#pragma once
// YAML → JSON, so the resolved case can sit inside summary.json. Scalars become numbers or
// booleans where they parse as such, else strings.
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>

namespace surrox {

nlohmann::json yaml_to_json(const YAML::Node& node);

}  // namespace surrox
