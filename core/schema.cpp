#include "core/schema.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/error.hpp"
#include "core/suggest.hpp"

namespace surrox {
namespace {

std::string number_text(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

}  // namespace

std::string to_string(KeyType type) {
  switch (type) {
    case KeyType::kBool:
      return "bool";
    case KeyType::kInt:
      return "integer";
    case KeyType::kReal:
      return "real";
    case KeyType::kString:
      return "string";
    case KeyType::kChoice:
      return "choice";
    case KeyType::kInputPath:
      return "input path";
    case KeyType::kOutputPath:
      return "output path";
    case KeyType::kRealList:
      return "list of reals";
    case KeyType::kIntList:
      return "list of integers";
    case KeyType::kStringList:
      return "list of strings";
    case KeyType::kSection:
      return "section";
    case KeyType::kComponent:
      return "component";
    case KeyType::kValueLists:
      return "map: key path → list";
  }
  return "?";
}

std::string KeySpec::constraint_text() const {
  if (!choices.empty()) return "one of: " + join(choices);
  std::string out;
  if (min && max) {
    out = std::string(min_exclusive ? "(" : "[") + number_text(*min) + ", " + number_text(*max) +
          (max_exclusive ? ")" : "]");
  } else if (min) {
    out = std::string(min_exclusive ? "> " : ">= ") + number_text(*min);
  } else if (max) {
    out = std::string(max_exclusive ? "< " : "<= ") + number_text(*max);
  }
  if (length) out += std::string(out.empty() ? "" : ", ") + std::to_string(*length) + " entries";
  return out;
}

KeySpec& Schema::add(const std::string& name, KeyType type, const std::string& doc) {
  if (find(name)) throw Error("schema declares key '" + name + "' twice");
  KeySpec spec;
  spec.name = name;
  spec.type = type;
  spec.doc = doc;
  keys_.push_back(std::move(spec));
  return keys_.back();
}

KeySpec& Schema::boolean(const std::string& n, const std::string& d) {
  return add(n, KeyType::kBool, d);
}
KeySpec& Schema::integer(const std::string& n, const std::string& d) {
  return add(n, KeyType::kInt, d);
}
KeySpec& Schema::real(const std::string& n, const std::string& d) {
  return add(n, KeyType::kReal, d);
}
KeySpec& Schema::string(const std::string& n, const std::string& d) {
  return add(n, KeyType::kString, d);
}
KeySpec& Schema::input_path(const std::string& n, const std::string& d) {
  return add(n, KeyType::kInputPath, d);
}
KeySpec& Schema::output_path(const std::string& n, const std::string& d) {
  return add(n, KeyType::kOutputPath, d);
}
KeySpec& Schema::reals(const std::string& n, const std::string& d) {
  return add(n, KeyType::kRealList, d);
}
KeySpec& Schema::integers(const std::string& n, const std::string& d) {
  return add(n, KeyType::kIntList, d);
}

KeySpec& Schema::strings(const std::string& n, const std::string& d) {
  return add(n, KeyType::kStringList, d);
}

KeySpec& Schema::choice(const std::string& name, std::vector<std::string> choices,
                        const std::string& doc) {
  KeySpec& spec = add(name, KeyType::kChoice, doc);
  spec.choices = std::move(choices);
  return spec;
}

KeySpec& Schema::section(const std::string& name, Schema schema, const std::string& doc) {
  KeySpec& spec = add(name, KeyType::kSection, doc);
  spec.section = std::make_shared<const Schema>(std::move(schema));
  return spec;
}

KeySpec& Schema::component(const std::string& name, const SchemaSource& source,
                           const std::string& doc) {
  KeySpec& spec = add(name, KeyType::kComponent, doc);
  spec.components = &source;
  return spec;
}

KeySpec& Schema::value_lists(const std::string& name, const std::string& doc) {
  return add(name, KeyType::kValueLists, doc);
}

Schema& Schema::defaults_by(const std::string& key, std::map<std::string, DefaultsRow> rows) {
  const KeySpec* spec = find(key);
  if (!spec || spec->type != KeyType::kChoice)
    throw Error("schema: defaults_by needs a choice key declared before it, not '" + key + "'");
  for (const auto& [value, row] : rows)
    if (std::find(spec->choices.begin(), spec->choices.end(), value) == spec->choices.end())
      throw Error("schema: defaults_by row '" + value + "' is not a choice of '" + key + "'");
  defaults_key_ = key;
  defaults_rows_ = std::move(rows);
  return *this;
}

const KeySpec* Schema::find(const std::string& name) const {
  for (const auto& key : keys_)
    if (key.name == name) return &key;
  return nullptr;
}

std::vector<std::string> Schema::key_names() const {
  std::vector<std::string> names;
  for (const auto& key : keys_) names.push_back(key.name);
  return names;
}

}  // namespace surrox
