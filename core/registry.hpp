#pragma once
// A string-keyed registry of factories, one per role (solvers, losses, couplers, ...).
// Each folder fills its registry explicitly in one register_all(); an unknown name is an
// InputError that lists the known names and the closest one.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/schema.hpp"
#include "core/suggest.hpp"

namespace surrox {

template <class Base, class... Args>
class Registry final : public SchemaSource {
 public:
  using Factory = std::function<std::unique_ptr<Base>(Args...)>;

  struct Entry {
    Factory make;
    Schema schema;    // the keys of this component's case-file section (besides `type`)
    std::string doc;  // one line for listings and docs
  };

  explicit Registry(std::string kind) : kind_(std::move(kind)) {}

  void add(const std::string& name, Entry entry) {
    if (entries_.count(name)) throw Error(kind_ + " '" + name + "' is registered twice");
    entries_.emplace(name, std::move(entry));
  }

  bool contains(const std::string& name) const { return entries_.count(name) != 0; }

  const Entry& at(const std::string& name, const ErrorContext& where = {}) const {
    auto it = entries_.find(name);
    if (it == entries_.end()) {
      throw InputError("unknown " + kind_ + " '" + name + "'" + did_you_mean(name, names()) +
                           "; known: " + join(names()),
                       where);
    }
    return it->second;
  }

  std::unique_ptr<Base> create(const std::string& name, Args... args) const {
    return at(name).make(std::forward<Args>(args)...);
  }

  const std::string& kind() const override { return kind_; }
  std::vector<std::string> names() const override {
    std::vector<std::string> out;
    for (const auto& [name, entry] : entries_) out.push_back(name);
    return out;
  }
  const Schema& schema_of(const std::string& name) const override { return at(name).schema; }
  const std::string& doc_of(const std::string& name) const override { return at(name).doc; }

 private:
  std::string kind_;
  std::map<std::string, Entry> entries_;
};

}  // namespace surrox
