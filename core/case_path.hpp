#pragma once
// A path as written in a case file or training config: a relative one resolves against the
// file's folder, as the validator resolves `input_path` keys (core/schema_validator.cpp); for
// keys that hold several paths (lists of models or datasets), which the validator leaves as text.
#include <filesystem>
#include <string>

#include "core/case_node.hpp"

namespace surrox {

inline std::filesystem::path resolve_case_path(const CaseNode& node, const std::string& written) {
  std::filesystem::path path(written);
  if (path.is_relative() && !node.origin().directory.empty())
    path = std::filesystem::path(node.origin().directory) / path;
  return path;
}

}  // namespace surrox
