#pragma once
// Loading a case file: read, reject what is not YAML text, parse, apply `--set` overrides,
// validate against a schema (filling defaults) and keep the resolved tree. Every problem is
// an InputError (exit code 2) naming the file, line and key path.
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <initializer_list>
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

// Values that replace keys of a case before it is validated, in order: "a.b.c=value" text as
// typed on `--set` (value is YAML: "3", "[1, 2]", "{type: heat}"), or typed values set by code,
// which are not formatted and re-parsed by the caller. A typed value holds the text a `--set`
// would have held (a real as "{:.17g}", which round-trips), so both give the same case; a bad
// value is reported as the schema reports any value, naming the key and `source` ("exploration
// run: solver.steps=-1") instead of a file line.
class CaseOverrides {
 public:
  CaseOverrides() = default;
  CaseOverrides(const std::vector<std::string>& texts);  // NOLINT: --set lists convert
  CaseOverrides(std::initializer_list<std::string> texts)
      : CaseOverrides(std::vector<std::string>(texts)) {}

  // What errors name for the typed values that follow (default "set by code").
  CaseOverrides& source(std::string name);
  CaseOverrides& text(const std::string& text);  // "a.b.c=value", as --set
  CaseOverrides& texts(const std::vector<std::string>& texts);
  CaseOverrides& real(const std::string& key_path, double value);
  CaseOverrides& integer(const std::string& key_path, long long value);
  CaseOverrides& boolean(const std::string& key_path, bool value);
  CaseOverrides& string(const std::string& key_path, const std::string& value);
  CaseOverrides& strings(const std::string& key_path, const std::vector<std::string>& values);
  // An empty section in place of whatever the key held (its keys set next), as `--set
  // solver.pair={...}` replaces the whole section.
  CaseOverrides& section(const std::string& key_path);

  struct Entry {
    std::string text;      // a --set text, parsed when applied (then key_path is empty)
    std::string key_path;  // a typed value's key
    YAML::Node value;
    std::string shown;  // as errors name it: "--set a.b=1", "exploration run: a.b=1"
  };
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  CaseOverrides& typed(const std::string& key_path, YAML::Node value, const std::string& text);

  std::vector<Entry> entries_;
  std::string source_ = "set by code";
};

CaseFile load_case(const std::filesystem::path& path, const Schema& schema,
                   const CaseOverrides& overrides = {});
// As load_case, for text that did not come from a file; `name` stands in for the file name.
CaseFile load_case_text(const std::string& text, const std::string& name, const Schema& schema,
                        const CaseOverrides& overrides = {},
                        const std::filesystem::path& directory = {});

// Largest case file accepted: case files are hand-written; anything bigger is a mistake.
inline constexpr std::size_t kMaxCaseFileBytes = 4 << 20;

}  // namespace surrox::io
