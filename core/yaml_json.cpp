#include "core/yaml_json.hpp"

namespace surrox {
namespace {

nlohmann::json scalar_to_json(const YAML::Node& node) {
  const std::string& text = node.Scalar();
  // Quoted scalars ("1") stay strings; yaml-cpp marks them with the "!" tag.
  if (node.Tag() == "!") return text;
  try {
    return node.as<long long>();
  } catch (const YAML::Exception&) {
  }
  try {
    return node.as<double>();
  } catch (const YAML::Exception&) {
  }
  try {
    return node.as<bool>();
  } catch (const YAML::Exception&) {
  }
  return text;
}

}  // namespace

nlohmann::json yaml_to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      return scalar_to_json(node);
    case YAML::NodeType::Sequence: {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& item : node) out.push_back(yaml_to_json(item));
      return out;
    }
    case YAML::NodeType::Map: {
      nlohmann::json out = nlohmann::json::object();
      for (const auto& item : node) out[item.first.as<std::string>()] = yaml_to_json(item.second);
      return out;
    }
    default:
      return nullptr;
  }
}

}  // namespace surrox
