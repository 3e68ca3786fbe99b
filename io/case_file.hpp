#pragma once
// Loading a case file: read, reject what is not YAML text, parse, apply `--set` overrides,
// validate against a schema (filling defaults) and keep the resolved tree. Every problem is
// an InputError (exit code 2) naming the file, line and key path.
#include <filesystem>
#include <string>
#include <vector>

#include "core/case_node.hpp"
#include "core/schema.hpp"

namespace surrox::io {

struct CaseFile {
  CaseNode root;
  // The case after defaults, path resolution and overrides, as YAML text.
  std::string resolved_yaml() const;
};

// `overrides` are "a.b.c=value" strings; value is YAML ("3", "[1, 2]", "{type: heat}").
CaseFile load_case(const std::filesystem::path& path, const Schema& schema,
                   const std::vector<std::string>& overrides = {});
// As load_case, for text that did not come from a file; `name` stands in for the file name.
CaseFile load_case_text(const std::string& text, const std::string& name, const Schema& schema,
                        const std::vector<std::string>& overrides = {},
                        const std::filesystem::path& directory = {});

// Largest case file accepted: case files are hand-written; anything bigger is a mistake.
inline constexpr std::size_t kMaxCaseFileBytes = 4 << 20;

}  // namespace surrox::io
