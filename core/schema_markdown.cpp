#include "core/schema_markdown.hpp"

#include "core/suggest.hpp"

namespace surrox {
namespace {

std::string escape(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

std::string default_text(const KeySpec& key) {
  if (key.type == KeyType::kSection) return "(section)";
  if (key.type == KeyType::kComponent)
    return key.default_component.empty() ? "**required**" : "`type: " + key.default_component + "`";
  if (key.default_value) return "`" + escape(*key.default_value) + "`";
  return key.optional_key ? "(optional)" : "**required**";
}

void render(const std::string& path, const Schema& schema, std::string& out,
            const std::string& summary = {}) {
  out += "\n### `" + (path.empty() ? std::string("(top level)") : path) + "`\n\n";
  if (!summary.empty()) out += "*" + summary + "*\n\n";
  if (!schema.doc().empty()) out += schema.doc() + "\n\n";
  if (schema.keys().empty()) {
    out += "No keys besides `type`.\n";
    return;
  }
  out += "| key | type | default | allowed | unit | description |\n";
  out += "|---|---|---|---|---|---|\n";
  for (const auto& key : schema.keys()) {
    std::string allowed = key.constraint_text();
    if (key.type == KeyType::kComponent) allowed = "type: " + join(key.components->names(), ", ");
    out += "| `" + key.name + "` | " + to_string(key.type) + " | " + default_text(key) + " | " +
           escape(allowed) + " | " + escape(key.unit) + " | " + escape(key.doc) + " |\n";
  }
  if (!schema.defaults_key().empty()) {
    out += "\nDefaults that depend on `" + schema.defaults_key() +
           "` (applied where the case does not give the key; they replace the column above):\n\n";
    out += "| `" + schema.defaults_key() + "` | key | default |\n|---|---|---|\n";
    for (const auto& [value, row] : schema.defaults_rows())
      for (const auto& [key_path, text] : row)
        out += "| `" + value + "` | `" + key_path + "` | `" + escape(text) + "` |\n";
  }
  for (const auto& key : schema.keys()) {
    const std::string child = path.empty() ? key.name : path + "." + key.name;
    if (key.type == KeyType::kSection) render(child, *key.section, out);
    if (key.type == KeyType::kComponent) {
      for (const auto& name : key.components->names()) {
        render(child + " (type: " + name + ")", key.components->schema_of(name), out,
               key.components->doc_of(name));
      }
    }
  }
}

}  // namespace

std::string schema_markdown(const std::string& title, const Schema& schema) {
  std::string out = "## " + title + "\n";
  render("", schema, out);
  return out;
}

}  // namespace surrox
