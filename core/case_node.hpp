#pragma once
// Typed, path-aware access to one section of a (validated) case file. Every accessor that
// fails, and every semantic check a component makes through fail(), names the file, the
// line and the key path, so a user can go straight to the offending line.
#include <yaml-cpp/yaml.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace surrox {

// Where a case came from: the file, its folder (relative paths resolve against it) and
// the keys that overrides set (key path → where the value came from, as errors name it in
// place of the file: "--set solver.ra=1e5" as typed, or a typed value's source).
struct CaseOrigin {
  std::string file;
  std::string directory;
  std::map<std::string, std::string> overrides;
};

class CaseNode {
 public:
  CaseNode(YAML::Node node, std::shared_ptr<const CaseOrigin> origin, std::string path = {});
  CaseNode(const CaseNode&) = default;
  // Rebinds to the other section. yaml-cpp's Node::operator= would instead overwrite the YAML
  // this node refers to, so assigning one section to another changed the case it came from.
  CaseNode& operator=(const CaseNode& other) {
    node_.reset(other.node_);
    origin_ = other.origin_;
    path_ = other.path_;
    return *this;
  }

  bool has(const std::string& key) const;
  bool boolean(const std::string& key) const;
  long long integer(const std::string& key) const;
  double real(const std::string& key) const;
  std::string string(const std::string& key) const;
  std::vector<double> reals(const std::string& key) const;
  std::vector<long long> integers(const std::string& key) const;
  std::vector<std::string> strings(const std::string& key) const;
  CaseNode section(const std::string& key) const;
  // The registered name of a {type: ...} component section.
  std::string type() const { return string("type"); }

  // "solver.ra" for key "ra" of the "solver" section.
  std::string path_of(const std::string& key) const;
  // File, line and key path of `key` (or of this section when key is empty).
  ErrorContext context(const std::string& key = {}) const;
  // Raise a bad-input error about `key`, e.g. a value the schema allows but the physics does not.
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;

  const YAML::Node& yaml() const { return node_; }
  YAML::Node& yaml() { return node_; }
  const std::string& path() const { return path_; }
  const CaseOrigin& origin() const { return *origin_; }
  std::shared_ptr<const CaseOrigin> origin_ptr() const { return origin_; }

 private:
  YAML::Node value(const std::string& key) const;
  template <class T>
  T as(const std::string& key, const char* what) const;

  YAML::Node node_;
  std::shared_ptr<const CaseOrigin> origin_;
  std::string path_;
};

}  // namespace surrox
