#pragma once
// Declarative description of a case-file section: its keys, their types, defaults, ranges,
// choices, units and one-line docs. Schemas validate case files and generate
// docs/case-reference.md, so what a component accepts is written down exactly once.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace surrox {

class Schema;

enum class KeyType {
  kBool,
  kInt,
  kReal,
  kString,
  kChoice,      // one of a fixed list of strings
  kInputPath,   // a file or folder that must exist; resolved relative to the case file
  kOutputPath,  // a file or folder to be written; resolved relative to the case file
  kRealList,
  kIntList,
  kStringList,
  kSection,     // a nested map with its own schema
  kComponent,   // a nested map {type: <registered name>, ...that component's keys}
  kValueLists,  // a map from key paths to non-empty lists of values (a sweep's varied keys);
                // the component that reads it checks the paths against its own schema
};

std::string to_string(KeyType type);

// Something that knows the schemas of named components: a registry, for {type: ...} sections.
class SchemaSource {
 public:
  virtual ~SchemaSource() = default;
  virtual const std::string& kind() const = 0;  // "solver", "loss", ...
  virtual std::vector<std::string> names() const = 0;
  virtual const Schema& schema_of(const std::string& name) const = 0;  // name must exist
  virtual const std::string& doc_of(const std::string& name) const = 0;
};

// One key of a section. Built fluently: schema.real("ra", "Rayleigh
// number").above(0).fallback("1e6").
struct KeySpec {
  std::string name;
  KeyType type = KeyType::kString;
  std::string doc;
  std::string unit;
  std::optional<std::string> default_value;  // YAML text; none and !optional_key => required
  bool optional_key = false;                 // may be absent without a default
  std::optional<double> min, max;
  bool min_exclusive = false, max_exclusive = false;
  std::vector<std::string> choices;
  std::optional<std::size_t> length;  // exact length of a list
  std::shared_ptr<const Schema> section;
  const SchemaSource* components = nullptr;
  std::string default_component;  // kComponent: type used when the section is absent

  KeySpec& fallback(std::string yaml_text) {
    default_value = std::move(yaml_text);
    return *this;
  }
  KeySpec& optional() {
    optional_key = true;
    return *this;
  }
  KeySpec& units(std::string u) {
    unit = std::move(u);
    return *this;
  }
  KeySpec& at_least(double v) {
    min = v;
    min_exclusive = false;
    return *this;
  }
  KeySpec& above(double v) {
    min = v;
    min_exclusive = true;
    return *this;
  }
  KeySpec& at_most(double v) {
    max = v;
    max_exclusive = false;
    return *this;
  }
  KeySpec& below(double v) {
    max = v;
    max_exclusive = true;
    return *this;
  }
  KeySpec& sized(std::size_t n) {
    length = n;
    return *this;
  }
  KeySpec& default_type(std::string t) {
    default_component = std::move(t);
    return *this;
  }

  bool required() const {
    return !default_value && !optional_key && type != KeyType::kSection &&
           default_component.empty();
  }
  // "> 0", "[1, 8]", "one of: a, b" — the allowed values in words, for errors and docs.
  std::string constraint_text() const;
};

class Schema {
 public:
  explicit Schema(std::string doc = {}) : doc_(std::move(doc)) {}

  KeySpec& boolean(const std::string& name, const std::string& doc);
  KeySpec& integer(const std::string& name, const std::string& doc);
  KeySpec& real(const std::string& name, const std::string& doc);
  KeySpec& string(const std::string& name, const std::string& doc);
  KeySpec& choice(const std::string& name, std::vector<std::string> choices,
                  const std::string& doc);
  KeySpec& input_path(const std::string& name, const std::string& doc);
  KeySpec& output_path(const std::string& name, const std::string& doc);
  KeySpec& reals(const std::string& name, const std::string& doc);
  KeySpec& integers(const std::string& name, const std::string& doc);
  KeySpec& strings(const std::string& name, const std::string& doc);
  KeySpec& section(const std::string& name, Schema schema, const std::string& doc);
  KeySpec& component(const std::string& name, const SchemaSource& source, const std::string& doc);
  KeySpec& value_lists(const std::string& name, const std::string& doc);

  // Defaults that depend on the value of this section's choice key `key` (e.g. the validated
  // settings of `equations: rans`): per value, (key path below this section, YAML text) pairs.
  // The validator applies the row of the case's value (given or defaulted) before any other
  // default of the section, where the path is absent and its component (as written, or its
  // default type) has the key; a key the case gives always wins. The case reference lists them.
  using DefaultsRow = std::vector<std::pair<std::string, std::string>>;
  Schema& defaults_by(const std::string& key, std::map<std::string, DefaultsRow> rows);
  const std::string& defaults_key() const { return defaults_key_; }
  const std::map<std::string, DefaultsRow>& defaults_rows() const { return defaults_rows_; }

  const std::string& doc() const { return doc_; }
  const std::vector<KeySpec>& keys() const { return keys_; }
  const KeySpec* find(const std::string& name) const;
  std::vector<std::string> key_names() const;

 private:
  KeySpec& add(const std::string& name, KeyType type, const std::string& doc);
  std::string doc_;
  std::vector<KeySpec> keys_;
  std::string defaults_key_;
  std::map<std::string, DefaultsRow> defaults_rows_;
};

}  // namespace surrox
