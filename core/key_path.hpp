#pragma once
// A case-file key path ("solver.mesh.cells_around") split at its dots, as `--set` overrides and
// the schema's defaults by choice address keys.
#include <sstream>
#include <string>
#include <vector>

namespace surrox {

inline std::vector<std::string> split_key_path(const std::string& path) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(path);
  while (std::getline(in, part, '.')) parts.push_back(part);
  return parts;
}

}  // namespace surrox
