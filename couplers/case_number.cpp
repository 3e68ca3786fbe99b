#include "couplers/case_number.hpp"

#include <yaml-cpp/yaml.h>

namespace surrox::couplers {

std::optional<double> case_number(const CaseNode& section, const std::string& key_path) {
  const std::string prefix = section.path() + ".";
  if (key_path.rfind(prefix, 0) != 0) return std::nullopt;
  YAML::Node node = YAML::Clone(section.yaml());
  std::size_t start = prefix.size();
  while (true) {
    const std::size_t dot = key_path.find('.', start);
    const std::string key =
        key_path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!node.IsMap() || !node[key]) return std::nullopt;
    node = node[key];
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (!node.IsScalar()) return std::nullopt;
  try {
    return node.as<double>();
  } catch (const YAML::Exception&) {
    return std::nullopt;
  }
}

}  // namespace surrox::couplers
