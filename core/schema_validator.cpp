#include "core/schema_validator.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "core/key_path.hpp"
#include "core/suggest.hpp"

namespace surrox {
namespace {

struct Issue {
  ErrorContext where;
  std::string message;
};

class Validator {
 public:
  explicit Validator(std::shared_ptr<const CaseOrigin> origin) : origin_(std::move(origin)) {}

  void section(const Schema& schema, YAML::Node node, const std::string& path,
               const std::vector<std::string>& extra_keys = {}) {
    CaseNode view(node, origin_, path);
    if (!node.IsMap()) {
      report(view.context(), "expected a section (a map of keys), got " + kind_of(node));
      return;
    }
    std::vector<std::string> allowed = schema.key_names();
    allowed.insert(allowed.end(), extra_keys.begin(), extra_keys.end());

    std::map<std::string, int> first_line;
    for (auto it = node.begin(); it != node.end(); ++it) {
      const YAML::Node key = it->first;
      const int line = key.Mark().line + 1;
      if (!key.IsScalar()) {
        report(at_mark(path, key), "keys must be plain names");
        continue;
      }
      const std::string name = key.Scalar();
      if (auto [pos, inserted] = first_line.emplace(name, line); !inserted) {
        report(at_mark(join_path(path, name), key), "duplicate key '" + name +
                                                        "' (first given on line " +
                                                        std::to_string(pos->second) + ")");
        continue;
      }
      if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
        report(at_mark(join_path(path, name), key), "unknown key '" + name + "'" +
                                                        did_you_mean(name, allowed) +
                                                        "; valid keys: " + join(allowed));
      }
    }
    apply_defaults_by(schema, node);
    for (const KeySpec& spec : schema.keys()) key(spec, node, view);
  }

  void throw_if_any() const {
    if (issues_.empty()) return;
    std::string message = issues_.front().message;
    for (std::size_t i = 1; i < issues_.size(); ++i)
      message += "\n" + format_error(issues_[i].message, issues_[i].where);
    throw InputError(message, issues_.front().where);
  }

 private:
  void key(const KeySpec& spec, YAML::Node& parent, const CaseNode& view) {
    const std::string path = view.path_of(spec.name);
    YAML::Node value = parent[spec.name];
    const bool absent = !value || value.IsNull();

    if (spec.type == KeyType::kSection) {
      if (absent) parent[spec.name] = YAML::Node(YAML::NodeType::Map);
      section(*spec.section, parent[spec.name], path);
      return;
    }
    if (spec.type == KeyType::kComponent) {
      if (absent) {
        if (spec.default_component.empty()) {
          report(view.context(), "missing required section '" + spec.name + "' (" + spec.doc +
                                     "); choose a type from: " + join(spec.components->names()));
          return;
        }
        YAML::Node made(YAML::NodeType::Map);
        made["type"] = spec.default_component;
        parent[spec.name] = made;
      }
      component(spec, parent[spec.name], path);
      return;
    }
    if (absent) {
      if (spec.default_value) {
        parent[spec.name] = YAML::Load(*spec.default_value);
        value.reset(parent[spec.name]);
      } else {
        if (spec.required())
          report(view.context(), "missing required key '" + spec.name + "' (" +
                                     to_string(spec.type) + ": " + spec.doc + ")");
        return;
      }
    }
    CaseNode here(parent, origin_, view.path());
    const ErrorContext where = here.context(spec.name);
    switch (spec.type) {
      case KeyType::kBool:
        scalar<bool>(spec, value, where, "true or false");
        break;
      case KeyType::kInt:
        number<long long>(spec, value, where, "an integer");
        break;
      case KeyType::kReal:
        number<double>(spec, value, where, "a real number");
        break;
      case KeyType::kString:
        scalar<std::string>(spec, value, where, "a string");
        break;
      case KeyType::kChoice:
        choice(spec, value, where);
        break;
      case KeyType::kInputPath:
      case KeyType::kOutputPath:
        file_path(spec, parent, value, where);
        break;
      case KeyType::kRealList:
        list<double>(spec, value, where, "real numbers");
        break;
      case KeyType::kIntList:
        list<long long>(spec, value, where, "integers");
        break;
      case KeyType::kStringList:
        list<std::string>(spec, value, where, "strings");
        break;
      case KeyType::kValueLists:
        value_lists(value, CaseNode(value, origin_, here.path_of(spec.name)));
        break;
      default:
        break;
    }
  }

  void component(const KeySpec& spec, YAML::Node node, const std::string& path) {
    CaseNode view(node, origin_, path);
    if (!node.IsMap()) {
      report(view.context(), "expected a section {type: ...}, got " + kind_of(node));
      return;
    }
    const std::vector<std::string> names = spec.components->names();
    // A section without `type` takes the default one, as an absent section does.
    if (!node["type"] && !spec.default_component.empty()) node["type"] = spec.default_component;
    const YAML::Node type = node["type"];
    if (!type || !type.IsScalar()) {
      report(view.context(), "missing 'type'; choose one of: " + join(names));
      return;
    }
    const std::string name = type.Scalar();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      report(view.context("type"), "unknown " + spec.components->kind() + " type '" + name + "'" +
                                       did_you_mean(name, names) + "; known: " + join(names));
      return;
    }
    section(spec.components->schema_of(name), node, path, {"type"});
  }

  // The row of Schema::defaults_by for the case's value of its key (an invalid value has no row;
  // the key's own check reports it).
  void apply_defaults_by(const Schema& schema, YAML::Node& node) {
    if (schema.defaults_key().empty()) return;
    const KeySpec* choice = schema.find(schema.defaults_key());
    const YAML::Node given = node[schema.defaults_key()];
    std::string value;
    if (given && given.IsScalar())
      value = given.Scalar();
    else if (choice->default_value)
      value = YAML::Load(*choice->default_value).Scalar();
    const auto row = schema.defaults_rows().find(value);
    if (row == schema.defaults_rows().end()) return;
    for (const auto& [path, text] : row->second)
      default_if_absent(schema, node, split_key_path(path), 0, text);
  }

  // Sets parts[i...] below `node` to `text` where absent, creating the sections and components
  // on the way as the validator would; nothing where the path's schema has no such key.
  static void default_if_absent(const Schema& schema, YAML::Node node,
                                const std::vector<std::string>& parts, std::size_t i,
                                const std::string& text) {
    const KeySpec* spec = schema.find(parts[i]);
    if (!spec || !node.IsMap()) return;
    const YAML::Node child = node[parts[i]];
    const bool absent = !child || child.IsNull();
    if (i + 1 == parts.size()) {
      if (absent) node[parts[i]] = YAML::Load(text);
      return;
    }
    if (!absent && !child.IsMap()) return;  // the key's own check reports it
    if (spec->type == KeyType::kSection) {
      if (absent) node[parts[i]] = YAML::Node(YAML::NodeType::Map);
      default_if_absent(*spec->section, node[parts[i]], parts, i + 1, text);
    } else if (spec->type == KeyType::kComponent) {
      const YAML::Node type = absent ? YAML::Node() : child["type"];
      const std::string name = type && type.IsScalar() ? type.Scalar() : spec->default_component;
      const std::vector<std::string> names = spec->components->names();
      if (std::find(names.begin(), names.end(), name) == names.end()) return;
      if (absent) {
        YAML::Node made(YAML::NodeType::Map);
        made["type"] = name;
        node[parts[i]] = made;
      }
      default_if_absent(spec->components->schema_of(name), node[parts[i]], parts, i + 1, text);
    }
  }

  template <class T>
  bool scalar(const KeySpec& spec, const YAML::Node& value, const ErrorContext& where,
              const std::string& expected, T* out = nullptr) {
    if (value.IsScalar()) {
      try {
        T parsed = value.as<T>();
        if (out) *out = parsed;
        return true;
      } catch (const YAML::Exception&) {
      }
    }
    report(where, "expected " + expected + ", got " + describe(value));
    return false;
  }

  template <class T>
  void number(const KeySpec& spec, const YAML::Node& value, const ErrorContext& where,
              const std::string& expected) {
    T parsed{};
    if (!scalar<T>(spec, value, where, expected, &parsed)) return;
    range(spec, static_cast<double>(parsed), where, value.Scalar());
  }

  void range(const KeySpec& spec, double v, const ErrorContext& where, const std::string& text) {
    if (!std::isfinite(v)) {
      report(where, "must be finite, got " + text);
      return;
    }
    const bool low = spec.min && (spec.min_exclusive ? v <= *spec.min : v < *spec.min);
    const bool high = spec.max && (spec.max_exclusive ? v >= *spec.max : v > *spec.max);
    if (low || high)
      report(where, "value " + text + " out of range; allowed: " + spec.constraint_text());
  }

  void choice(const KeySpec& spec, const YAML::Node& value, const ErrorContext& where) {
    std::string text;
    if (!scalar<std::string>(spec, value, where, "one of: " + join(spec.choices), &text)) return;
    if (std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end())
      report(where, "'" + text + "' is not a valid choice" + did_you_mean(text, spec.choices) +
                        "; valid: " + join(spec.choices));
  }

  void file_path(const KeySpec& spec, YAML::Node& parent, const YAML::Node& value,
                 const ErrorContext& where) {
    std::string text;
    if (!scalar<std::string>(spec, value, where, "a path", &text)) return;
    if (text.empty()) {
      report(where, "path is empty");
      return;
    }
    std::filesystem::path path(text);
    if (path.is_relative() && !origin_->directory.empty()) path = origin_->directory / path;
    path = path.lexically_normal();
    if (spec.type == KeyType::kInputPath && !std::filesystem::exists(path)) {
      report(where, "no such file or folder: " + path.string());
      return;
    }
    parent[spec.name] = path.string();
  }

  // {a.b: [v1, v2], c: [w1]}: every key a path, every value a non-empty list of scalars.
  void value_lists(const YAML::Node& value, const CaseNode& view) {
    if (!value.IsMap()) {
      report(view.context(),
             "expected a map from key paths to lists of values, got " + describe(value));
      return;
    }
    if (value.size() == 0)
      report(view.context(), "needs at least one key path with a list of values");
    for (const auto& entry : value) {
      const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : std::string();
      if (key.empty()) {
        report(view.context(), "every key must be a key path such as solver.mach");
        continue;
      }
      const YAML::Node& values = entry.second;
      // Each value is a scalar or a list of scalars (a key such as modes: [1, 2] takes a list).
      bool valid = values.IsSequence() && values.size() > 0;
      for (std::size_t i = 0; valid && i < values.size(); ++i) {
        valid = values[i].IsScalar() || values[i].IsSequence();
        for (std::size_t j = 0; valid && values[i].IsSequence() && j < values[i].size(); ++j)
          valid = values[i][j].IsScalar();
      }
      if (!valid)
        report(view.context(key),
               "expected a non-empty list of values (scalars or lists of scalars), got " +
                   describe(values));
    }
  }

  template <class T>
  void list(const KeySpec& spec, const YAML::Node& value, const ErrorContext& where,
            const std::string& what) {
    if (!value.IsSequence()) {
      report(where, "expected a list of " + what + ", got " + describe(value));
      return;
    }
    if (spec.length && value.size() != *spec.length) {
      report(where, "expected " + std::to_string(*spec.length) + " entries, got " +
                        std::to_string(value.size()));
      return;
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
      T parsed{};
      if (!scalar<T>(spec, value[i], where,
                     what.substr(0, what.size() - 1) + " at entry " + std::to_string(i), &parsed))
        return;
      if constexpr (std::is_arithmetic_v<T>)
        range(spec, static_cast<double>(parsed), where, value[i].Scalar());
    }
  }

  static std::string kind_of(const YAML::Node& node) {
    switch (node.Type()) {
      case YAML::NodeType::Map:
        return "a section";
      case YAML::NodeType::Sequence:
        return "a list";
      case YAML::NodeType::Scalar:
        return "'" + node.Scalar() + "'";
      default:
        return "nothing";
    }
  }
  static std::string describe(const YAML::Node& node) { return kind_of(node); }

  static std::string join_path(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

  ErrorContext at_mark(const std::string& path, const YAML::Node& node) const {
    ErrorContext where;
    where.key_path = path;
    if (auto it = origin_->overrides.find(path); it != origin_->overrides.end()) {
      where.file = it->second;
      return where;
    }
    where.file = origin_->file;
    if (node.Mark().line >= 0) {
      where.line = node.Mark().line + 1;
      where.column = node.Mark().column + 1;
    }
    return where;
  }

  void report(ErrorContext where, std::string message) {
    issues_.push_back({std::move(where), std::move(message)});
  }

  std::shared_ptr<const CaseOrigin> origin_;
  std::vector<Issue> issues_;
};

}  // namespace

void validate_case(const Schema& schema, CaseNode& root) {
  Validator validator(root.origin_ptr());
  validator.section(schema, root.yaml(), root.path());
  validator.throw_if_any();
}

}  // namespace surrox
