#include "io/openfoam_initial_fields.hpp"

#include <fmt/format.h>

#include <cctype>
#include <fstream>
#include <optional>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace surrox::io {

namespace {

namespace fs = std::filesystem;

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':';
}

// Positions of `word` as a whole token at brace depth `depth`, outside comments.
std::vector<std::size_t> foam_tokens(const std::string& text, const std::string& word,
                                     std::optional<int> depth) {
  std::vector<std::size_t> found;
  int level = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "//") == 0) {
      i = text.find('\n', i);
      if (i == std::string::npos) break;
    } else if (text.compare(i, 2, "/*") == 0) {
      i = text.find("*/", i + 2);
      if (i == std::string::npos) break;
      ++i;
    } else if (text[i] == '{') {
      ++level;
    } else if (text[i] == '}') {
      --level;
    } else if (text.compare(i, word.size(), word) == 0 && (!depth || level == *depth) &&
               (i == 0 || !identifier_char(text[i - 1])) &&
               (i + word.size() == text.size() || !identifier_char(text[i + word.size()]))) {
      found.push_back(i);
      i += word.size() - 1;
    }
  }
  return found;
}

// The value after the top-level keyword `key` up to its ';' ([begin, end) of the value text).
std::pair<std::size_t, std::size_t> foam_entry(const std::string& text, const std::string& key,
                                               int depth, const std::string& source) {
  const auto at = foam_tokens(text, key, depth);
  if (at.size() != 1)
    throw InputError(fmt::format("has {} `{}` entries; expected one", at.size(), key), {source});
  const std::size_t begin = at.front() + key.size(), end = text.find(';', begin);
  if (end == std::string::npos) throw InputError("`" + key + "` has no ';'", {source});
  return {begin, end};
}

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

void copy_openfoam_case_initial(const fs::path& from, const fs::path& to) {
  if (!fs::is_regular_file(from / "system" / "controlDict"))
    throw InputError("is not an OpenFOAM case folder (no system/controlDict)", {from.string()});
  if (!fs::is_directory(from / "0"))
    throw InputError("has no 0/ directory of initial fields to write the prediction into",
                     {from.string()});
  if (fs::exists(to)) throw InputError("exists already; give another output folder", {to.string()});
  fs::create_directories(to);
  for (const auto& entry : fs::directory_iterator(from)) {
    const std::string name = entry.path().filename().string();
    const bool time = entry.is_directory() && name != "0" &&
                      name.find_first_not_of("0123456789.eE+-") == std::string::npos;
    if (time || name.rfind("processor", 0) == 0) continue;
    fs::copy(entry.path(), to / name, fs::copy_options::recursive);
  }
}

std::string with_internal_field(const std::string& text, const HostArray& values,
                                const std::string& source) {
  const auto format = foam_tokens(text, "binary", 1);
  if (!format.empty())
    throw InputError(
        "is written in binary; surrox writes predictions into ASCII fields only "
        "(foamFormatConvert -ascii, or writeFormat ascii)",
        {source});
  const std::size_t components = values.extent(1);
  const auto [begin, end] = foam_entry(text, "internalField", 0, source);
  const auto [cbegin, cend] = foam_entry(text.substr(0, begin), "class", 1, source);
  const std::string field_class = trimmed(text.substr(cbegin, cend - cbegin));
  const bool vector = field_class == "volVectorField";
  if (!(vector ? components == 3 : field_class == "volScalarField" && components == 1))
    throw InputError(fmt::format("is a {}; the prediction has {} component(s) per cell",
                                 field_class, components),
                     {source});
  std::ostringstream list;
  list << " nonuniform List<" << (vector ? "vector" : "scalar") << "> \n"
       << values.extent(0) << "\n(\n";
  for (std::size_t r = 0; r < values.extent(0); ++r)
    list << (vector ? fmt::format("({} {} {})\n", values(r, 0), values(r, 1), values(r, 2))
                    : fmt::format("{}\n", values(r, 0)));
  list << ")\n";
  const std::string former = trimmed(text.substr(begin, end - begin));
  // Everything after the internalField, with $internalField meaning the former value.
  std::string rest = text.substr(end);
  for (auto at = foam_tokens(rest, "$internalField", std::nullopt); !at.empty();
       at = foam_tokens(rest, "$internalField", std::nullopt))
    rest.replace(at.front(), std::string("$internalField").size(), former);
  return text.substr(0, begin) + list.str() + rest;
}

void write_internal_field(const fs::path& field, const HostArray& values) {
  std::ifstream in(field, std::ios::binary);
  if (!in) throw InputError("no such field file", {field.string()});
  std::stringstream text;
  text << in.rdbuf();
  write_text_atomically(field, with_internal_field(text.str(), values, field.string()));
}

}  // namespace surrox::io
