#include "io/case_file.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "core/key_path.hpp"
#include "core/schema_validator.hpp"

namespace surrox::io {
namespace {

// Text that is not valid UTF-8 or holds control characters is not a case file.
void check_text(const std::string& text, const std::string& name) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError("empty case file", {name});
  int line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') ++line;
    if ((c < 0x20 && c != '\n' && c != '\r' && c != '\t') || c == 0x7f)
      throw InputError("binary data (byte 0x" +
                           [&] {
                             std::ostringstream hex;
                             hex << std::hex << int(c);
                             return hex.str();
                           }() +
                           "), not a YAML case file",
                       {name, line});
    if (c >= 0x80) {  // validate one UTF-8 sequence
      const int length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
      bool valid = length > 0 && c < 0xF8 && i + length <= text.size();
      for (int k = 1; valid && k < length; ++k)
        valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
      if (!valid) throw InputError("invalid UTF-8: not a YAML case file", {name, line});
      i += length - 1;
    }
  }
}

// Splits "a.b.c=value" into its key path and YAML value; errors name the text as --set.
CaseOverrides::Entry parse_override(const std::string& text) {
  const auto equals = text.find('=');
  const ErrorContext where{"--set " + text};
  if (equals == std::string::npos || equals == 0)
    throw InputError("expected KEY.PATH=VALUE, e.g. solver.ra=1e5", where);
  CaseOverrides::Entry entry{{}, text.substr(0, equals), {}, "--set " + text};
  try {
    entry.value = YAML::Load(text.substr(equals + 1));
  } catch (const YAML::Exception& e) {
    throw InputError("value is not valid YAML: " + e.msg, where);
  }
  return entry;
}

void apply_override(YAML::Node root, const CaseOverrides::Entry& entry, CaseOrigin& origin) {
  const std::string& key_path = entry.key_path;
  const ErrorContext where{entry.shown};
  const std::vector<std::string> keys = split_key_path(key_path);
  for (const auto& key : keys)
    if (key.empty()) throw InputError("empty key in path '" + key_path + "'", where);
  YAML::Node node = root;
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    YAML::Node next = node[keys[i]];
    if (!next || next.IsNull()) {
      node[keys[i]] = YAML::Node(YAML::NodeType::Map);
      next.reset(node[keys[i]]);
    } else if (!next.IsMap()) {
      std::string prefix;
      for (std::size_t k = 0; k <= i; ++k) prefix += (k ? "." : "") + keys[k];
      throw InputError("'" + prefix + "' is not a section, cannot set '" + key_path + "'", where);
    }
    node.reset(next);  // rebind: yaml-cpp's operator= would overwrite the node's value
  }
  node[keys.back()] = YAML::Clone(entry.value);  // validation fills it: keep the entry as set
  origin.overrides[key_path] = entry.shown;
}

// A scalar as the YAML parser makes it from plain text ("300", "true"): the same node as the
// text of a --set.
YAML::Node plain_scalar(const std::string& text) {
  YAML::Node node(text);
  node.SetTag("?");
  return node;
}

// A quoted string ('true' stays a string).
YAML::Node string_scalar(const std::string& text) {
  YAML::Node node(text);
  node.SetTag("!");
  return node;
}

}  // namespace

CaseOverrides::CaseOverrides(const std::vector<std::string>& texts) { this->texts(texts); }

CaseOverrides& CaseOverrides::source(std::string name) {
  source_ = std::move(name);
  return *this;
}

CaseOverrides& CaseOverrides::text(const std::string& text) {
  // Parsed when applied, so that a bad --set is reported by load_case, as before.
  entries_.push_back({text, {}, {}, "--set " + text});
  return *this;
}

CaseOverrides& CaseOverrides::texts(const std::vector<std::string>& texts) {
  for (const std::string& t : texts) text(t);
  return *this;
}

CaseOverrides& CaseOverrides::typed(const std::string& key_path, YAML::Node value,
                                    const std::string& text) {
  entries_.push_back({{}, key_path, std::move(value), source_ + ": " + key_path + "=" + text});
  return *this;
}

CaseOverrides& CaseOverrides::real(const std::string& key_path, double value) {
  // YAML's spellings of the non-finite values; "{:.17g}" round-trips every finite double.
  const std::string text = std::isnan(value)   ? ".nan"
                           : std::isinf(value) ? (value > 0 ? ".inf" : "-.inf")
                                               : fmt::format("{:.17g}", value);
  return typed(key_path, plain_scalar(text), text);
}

CaseOverrides& CaseOverrides::integer(const std::string& key_path, long long value) {
  const std::string text = std::to_string(value);
  return typed(key_path, plain_scalar(text), text);
}

CaseOverrides& CaseOverrides::boolean(const std::string& key_path, bool value) {
  const std::string text = value ? "true" : "false";
  return typed(key_path, plain_scalar(text), text);
}

CaseOverrides& CaseOverrides::string(const std::string& key_path, const std::string& value) {
  return typed(key_path, string_scalar(value), "'" + value + "'");
}

CaseOverrides& CaseOverrides::strings(const std::string& key_path,
                                      const std::vector<std::string>& values) {
  YAML::Node list(YAML::NodeType::Sequence);
  list.SetStyle(YAML::EmitterStyle::Flow);  // as "[a, b]" on a --set
  std::string text = "[";
  for (const std::string& v : values) {
    list.push_back(string_scalar(v));
    text += (text.size() > 1 ? ", '" : "'") + v + "'";
  }
  return typed(key_path, list, text + "]");
}

CaseOverrides& CaseOverrides::section(const std::string& key_path) {
  YAML::Node map(YAML::NodeType::Map);
  map.SetStyle(YAML::EmitterStyle::Flow);  // as "{...}" on a --set
  return typed(key_path, map, "{}");
}

std::string CaseFile::resolved_yaml() const {
  YAML::Emitter out;
  out << root.yaml();
  return std::string(out.c_str()) + "\n";
}

CaseFile load_case_text(const std::string& text, const std::string& name, const Schema& schema,
                        const CaseOverrides& overrides, const std::filesystem::path& directory) {
  check_text(text, name);
  YAML::Node tree;
  try {
    tree = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    ErrorContext where{name};
    if (e.mark.line >= 0) {
      where.line = e.mark.line + 1;
      where.column = e.mark.column + 1;
    }
    throw InputError("YAML syntax error: " + e.msg, where);
  }
  if (!tree.IsMap())
    throw InputError("a case file must be a map of sections (key: value), not a " +
                         std::string(tree.IsSequence() ? "list" : "single value"),
                     {name, 1});
  auto origin = std::make_shared<CaseOrigin>();
  origin->file = name;
  origin->directory = directory.string();
  for (const CaseOverrides::Entry& entry : overrides.entries())
    apply_override(tree, entry.key_path.empty() ? parse_override(entry.text) : entry, *origin);
  CaseFile file{CaseNode(tree, origin)};
  validate_case(schema, file.root);
  return file;
}

CaseFile load_case(const std::filesystem::path& path, const Schema& schema,
                   const CaseOverrides& overrides) {
  const std::string name = path.string();
  std::error_code error;
  if (!std::filesystem::exists(path, error)) throw InputError("no such case file", {name});
  if (!std::filesystem::is_regular_file(path, error))
    throw InputError("not a regular file", {name});
  if (std::filesystem::file_size(path, error) > kMaxCaseFileBytes)
    throw InputError(
        "larger than " + std::to_string(kMaxCaseFileBytes >> 20) + " MiB; not a case file", {name});
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open for reading", {name});
  std::ostringstream text;
  text << in.rdbuf();
  const auto directory = std::filesystem::absolute(path).parent_path();
  return load_case_text(text.str(), name, schema, overrides, directory);
}

}  // namespace surrox::io
