#include "training/field/collection_channels.hpp"

#include <fmt/format.h>
#include <glob.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/error.hpp"
#include "io/vtk_geometry.hpp"
#include "io/vtk_openfoam_case.hpp"
#include "io/vtk_reader.hpp"

namespace surrox::training {
namespace {

namespace fs = std::filesystem;

std::string collection_trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
}

std::vector<std::string> collection_split_csv(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream stream(line);
  std::string cell;
  while (std::getline(stream, cell, ',')) cells.push_back(collection_trim(cell));
  if (!line.empty() && line.back() == ',') cells.push_back("");
  return cells;
}

// A case's file: a VTK file, or an OpenFOAM case folder (named by the folder, "cavity/" too).
CollectionCase collection_case_of(const fs::path& folder, const std::string& file,
                                  const std::string& where) {
  if (file.empty()) throw InputError(where + ": the `file` of a case is empty");
  CollectionCase c;
  c.file = fs::path(file).is_absolute() ? fs::path(file) : folder / file;
  c.file = c.file.lexically_normal();
  if (!c.file.has_filename()) c.file = c.file.parent_path();
  c.where = where;
  std::error_code error;
  if (fs::is_directory(c.file, error)) {
    if (!io::is_openfoam_case(c.file))
      throw InputError(where + ": " + c.file.string() +
                       " is a folder but not an OpenFOAM case folder (it has no "
                       "system/controlDict); a case is a VTK file or an OpenFOAM case folder");
    c.name = c.file.filename().string();
    return c;
  }
  c.name = fs::path(file).stem().string();
  if (!fs::is_regular_file(c.file, error))
    throw InputError(where + ": no such file " + c.file.string());
  return c;
}

// An OpenFOAM case's `time` column says which time is read; it stays a parameter as well (a
// number can be an input; `latest` cannot). A VTK file's `time` is only a parameter.
void collection_case_time(CollectionCase& c) {
  auto it = c.parameters.find("time");
  if (it != c.parameters.end() && io::is_openfoam_case(c.file)) c.time = it->second;
}

std::vector<CollectionCase> collection_from_csv(const fs::path& path, const std::string& text) {
  std::vector<CollectionCase> cases;
  std::vector<std::string> header;
  std::stringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    const std::string trimmed = collection_trim(line);
    if (trimmed.empty() || trimmed[0] == '#') continue;
    const auto cells = collection_split_csv(trimmed);
    const std::string where = path.string() + ":" + std::to_string(number);
    if (header.empty()) {
      header = cells;
      if (header[0] != "file")
        throw InputError(where + ": the header's first column must be `file`, not '" + header[0] +
                         "'");
      for (const auto& name : header)
        if (name.empty()) throw InputError(where + ": a header column has no name");
      continue;
    }
    if (cells.size() != header.size())
      throw InputError(fmt::format("{}: {} values where the header has {} columns", where,
                                   cells.size(), header.size()));
    CollectionCase c = collection_case_of(path.parent_path(), cells[0], where);
    for (std::size_t k = 1; k < cells.size(); ++k) {
      if (header[k] == "name")
        c.name = cells[k];
      else
        c.parameters[header[k]] = cells[k];
    }
    collection_case_time(c);
    cases.push_back(std::move(c));
  }
  if (header.empty()) throw InputError(path.string() + ": the manifest is empty");
  return cases;
}

std::vector<CollectionCase> collection_from_yaml(const fs::path& path, const std::string& text) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError(path.string() + ": not valid YAML: " + e.what());
  }
  if (root.IsMap() && root["cases"]) root = root["cases"];
  if (!root.IsSequence())
    throw InputError(path.string() + ": expected a list of cases (each {file: ..., parameters})");
  std::vector<CollectionCase> cases;
  for (std::size_t i = 0; i < root.size(); ++i) {
    const YAML::Node entry = root[i];
    const std::string where = path.string() + ":" + std::to_string(entry.Mark().line + 1) +
                              " (case " + std::to_string(i) + ")";
    if (!entry.IsMap() || !entry["file"] || !entry["file"].IsScalar())
      throw InputError(where + ": a case is a map with a `file` key");
    CollectionCase c = collection_case_of(path.parent_path(), entry["file"].Scalar(), where);
    for (const auto& kv : entry) {
      const std::string key = kv.first.as<std::string>();
      if (key == "file") continue;
      if (!kv.second.IsScalar())
        throw InputError(where + ": parameter '" + key + "' must be a single value");
      if (key == "name")
        c.name = kv.second.Scalar();
      else
        c.parameters[key] = kv.second.Scalar();
    }
    collection_case_time(c);
    cases.push_back(std::move(c));
  }
  return cases;
}

std::string collection_lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char ch) { return std::tolower(ch); });
  return text;
}

// "velocity[1]" → {"velocity", 1}; "p" → {"p", -1}.
std::pair<std::string, long> collection_component(const std::string& text) {
  static const std::regex pattern(R"(^(.+)\[([0-9]+)\]$)");
  std::smatch m;
  if (std::regex_match(text, m, pattern)) return {m[1], std::stol(m[2])};
  return {text, -1};
}

std::string collection_known_arrays(const io::MeshData& mesh, bool on_cells) {
  std::string known;
  for (const auto& a : on_cells ? mesh.cell_data : mesh.point_data)
    known += (known.empty() ? "" : ", ") + a.name;
  return known.empty() ? "none" : known;
}

// Builds the columns of one group of channels (inputs or outputs) for one case.
class CollectionColumns {
 public:
  CollectionColumns(const io::MeshCollection& file, const io::MeshData& mesh,
                    const CollectionCase& c, const CollectionChannelSpec& spec)
      : file_(file), mesh_(mesh), case_(c), spec_(spec) {
    rows_ = spec.on_cells ? mesh.number_of_cells() : mesh.number_of_points();
  }
  std::size_t rows() const { return rows_; }

  void add(const std::string& channel) {
    for (int d = 0; d < 3; ++d)
      if (channel == kCoordinateChannels[d]) {
        const io::HostArray& xyz = coordinates();
        push(channel, [&](std::size_t r) { return xyz(r, d); });
        return;
      }
    if (channel.rfind(kDistancePrefix, 0) == 0) {
      const std::string block = channel.substr(std::string(kDistancePrefix).size());
      const auto distance =
          io::distance_to_cells(collection_block(file_, block, source()), coordinates());
      push(channel, [&](std::size_t r) { return distance[r]; });
      return;
    }
    if (channel == kCellSizeChannel) {
      if (!spec_.on_cells) fail("'cell_size' is a per-cell channel; set `rows: cells` to use it");
      const auto sizes = io::cell_sizes(mesh_);
      push(channel, [&](std::size_t r) { return sizes[r]; });
      return;
    }
    const auto [name, component] = collection_component(channel);
    const io::NamedArray* array =
        spec_.on_cells ? mesh_.find_cell_array(name) : mesh_.find_point_array(name);
    if (!array) {
      const io::NamedArray* other =
          spec_.on_cells ? mesh_.find_point_array(name) : mesh_.find_cell_array(name);
      fail(fmt::format(
          "has no {} array '{}'{}; {} arrays: {}; derived channels: coord_x, "
          "coord_y, coord_z, distance_to:<block>, cell_size",
          spec_.on_cells ? "cell" : "point", name,
          other
              ? fmt::format(" (it is a {} array: set `rows: {}`)",
                            spec_.on_cells ? "point" : "cell", spec_.on_cells ? "points" : "cells")
              : "",
          spec_.on_cells ? "cell" : "point", collection_known_arrays(mesh_, spec_.on_cells)));
    }
    const long components = static_cast<long>(array->components());
    if (component >= components)
      fail(fmt::format("array '{}' has {} component(s); component {} does not exist", name,
                       components, component));
    if (component >= 0 || components == 1) {
      const long k = std::max(0L, component);
      push(channel, [&](std::size_t r) { return array->values(r, k); });
    } else {
      for (long k = 0; k < components; ++k)
        push(fmt::format("{}[{}]", name, k), [&](std::size_t r) { return array->values(r, k); });
    }
  }

  void add_parameter(const std::string& name) {
    auto it = case_.parameters.find(name);
    if (it == case_.parameters.end()) {
      std::string known;
      for (const auto& [key, value] : case_.parameters) known += (known.empty() ? "" : ", ") + key;
      throw InputError(case_.where + ": case '" + case_.name + "' has no parameter '" + name +
                       "' (its parameters: " + (known.empty() ? "none" : known) + ")");
    }
    char* end = nullptr;
    const double value = std::strtod(it->second.c_str(), &end);
    if (it->second.empty() || *end)
      throw InputError(case_.where + ": parameter '" + name + "' = '" + it->second +
                       "' is not a number; text parameters can only group cases (group_by)");
    push(name, [&](std::size_t) { return value; });
  }

  io::HostArray matrix(const std::string& label) const {
    io::HostArray out(label, rows_, columns_.size());
    for (std::size_t c = 0; c < columns_.size(); ++c)
      for (std::size_t r = 0; r < rows_; ++r) out(r, c) = columns_[c][r];
    return out;
  }
  const std::vector<std::string>& names() const { return names_; }

 private:
  template <class F>
  void push(const std::string& name, F value) {
    std::vector<double> column(rows_);
    for (std::size_t r = 0; r < rows_; ++r) column[r] = value(r);
    names_.push_back(name);
    columns_.push_back(std::move(column));
  }
  const io::HostArray& coordinates() {
    if (coordinates_.extent(0) == 0 && rows_ > 0)
      coordinates_ = spec_.on_cells ? io::cell_centers(mesh_) : io::point_coordinates(mesh_);
    return coordinates_;
  }
  std::string source() const { return case_.file.string(); }
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(what, ErrorContext{case_.file.string()});
  }

  const io::MeshCollection& file_;
  const io::MeshData& mesh_;
  const CollectionCase& case_;
  const CollectionChannelSpec& spec_;
  std::size_t rows_ = 0;
  io::HostArray coordinates_;
  std::vector<std::string> names_;
  std::vector<std::vector<double>> columns_;
};

}  // namespace

std::vector<CollectionCase> collection_cases(const std::string& files, const fs::path& base,
                                             std::string* fingerprint_text) {
  if (files.empty())
    throw InputError(
        "`files` is empty: give a manifest, a glob of VTK files or an OpenFOAM case folder");
  fs::path pattern(files);
  if (pattern.is_relative()) pattern = base / pattern;
  std::error_code error;
  if (fs::is_directory(pattern, error)) {
    // A folder: its manifest when it has one (the cases' parameters are there), else the
    // folder itself when it is an OpenFOAM case, else its VTK files and OpenFOAM case
    // sub-folders, in name order.
    for (const char* manifest : {"manifest.csv", "manifest.yaml", "manifest.yml"})
      if (fs::is_regular_file(pattern / manifest, error))
        return collection_cases((pattern / manifest).string(), base, fingerprint_text);
    if (fingerprint_text) fingerprint_text->clear();
    if (io::is_openfoam_case(pattern)) {
      CollectionCase c = collection_case_of({}, pattern.string(), pattern.string());
      c.where = c.file.string();
      return {c};
    }
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(pattern, error)) {
      const std::string e = collection_lower(entry.path().extension().string());
      if ((entry.is_regular_file() && (e == ".vtu" || e == ".vts" || e == ".vti" || e == ".vtp" ||
                                       e == ".vtr" || e == ".vtk" || e == ".vtm")) ||
          io::is_openfoam_case(entry.path()))
        found.push_back(entry.path());
    }
    std::sort(found.begin(), found.end());
    if (found.empty())
      throw InputError(
          "is a folder with neither a manifest (manifest.csv, .yaml), nor system/controlDict (an "
          "OpenFOAM case folder), nor VTK files (.vtu, .vts, .vti, .vtp, .vtr, .vtk, .vtm) or "
          "OpenFOAM case folders in it",
          {pattern.string()});
    std::vector<CollectionCase> cases;
    for (const auto& f : found)
      cases.push_back(collection_case_of({}, f.string(), pattern.string()));
    return cases;
  }
  const std::string ext = collection_lower(pattern.extension().string());
  if (ext == ".csv" || ext == ".yaml" || ext == ".yml") {
    std::ifstream in(pattern, std::ios::binary);
    if (!in) throw InputError("no such manifest", {pattern.string()});
    std::stringstream text;
    text << in.rdbuf();
    if (fingerprint_text) *fingerprint_text = text.str();
    auto cases = ext == ".csv" ? collection_from_csv(pattern, text.str())
                               : collection_from_yaml(pattern, text.str());
    if (cases.empty()) throw InputError("the manifest lists no cases", {pattern.string()});
    return cases;
  }
  if (fingerprint_text) fingerprint_text->clear();
  glob_t matches{};
  const int status = ::glob(pattern.c_str(), 0, nullptr, &matches);
  std::vector<CollectionCase> cases;
  for (std::size_t i = 0; status == 0 && i < matches.gl_pathc; ++i)
    cases.push_back(collection_case_of({}, matches.gl_pathv[i], pattern.string()));
  globfree(&matches);
  if (cases.empty())
    throw InputError(
        "matches no file (a glob of VTK files or OpenFOAM case folders, or a manifest ending in "
        ".csv, .yaml, .yml)",
        {pattern.string()});
  return cases;  // glob(3) sorts the matches
}

nlohmann::json CollectionChannelSpec::to_json() const {
  return {{"type", "collection"},     {"rows", on_cells ? "cells" : "points"},
          {"block", block},           {"inputs", inputs},
          {"parameters", parameters}, {"outputs", outputs},
          {"weight", weight}};
}

CollectionChannelSpec CollectionChannelSpec::from_json(const nlohmann::json& j,
                                                       const std::string& source) {
  try {
    CollectionChannelSpec spec;
    spec.on_cells = j.at("rows").get<std::string>() == "cells";
    spec.block = j.at("block").get<std::string>();
    spec.inputs = j.at("inputs").get<std::vector<std::string>>();
    spec.parameters = j.at("parameters").get<std::vector<std::string>>();
    spec.outputs = j.at("outputs").get<std::vector<std::string>>();
    spec.weight = j.at("weight").get<std::string>();
    return spec;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source + ": the model's data description is incomplete: " + e.what());
  }
}

io::MeshCollection read_collection_case(const CollectionCase& c, const std::string& default_time) {
  if (!io::is_openfoam_case(c.file)) return io::read_vtk(c.file);
  const std::string& time = c.time.empty() ? default_time : c.time;
  try {
    return io::read_openfoam_case(c.file, time.empty() ? io::kOpenFoamLatestTime : time);
  } catch (const InputError& e) {
    // A manifest's line (or the glob) says where the case came from; the folder is in e.
    if (c.where == c.file.string()) throw;
    throw InputError(c.where + ": " + e.what());
  }
}

const io::MeshData& collection_block(const io::MeshCollection& file, const std::string& block,
                                     const std::string& source) {
  if (file.entries.empty()) throw InputError("holds no dataset", {source});
  if (block.empty())
    return file.kind == io::MeshCollection::Kind::kTimeSeries ? file.entries.back().mesh
                                                              : file.entries.front().mesh;
  for (const auto& entry : file.entries)
    if (entry.name == block) return entry.mesh;
  std::string known;
  for (const auto& entry : file.entries) known += (known.empty() ? "" : ", ") + entry.name;
  throw InputError("has no block '" + block + "'; its blocks: " + known, {source});
}

CollectionRows collection_rows(const io::MeshCollection& file, const CollectionCase& c,
                               const CollectionChannelSpec& spec, bool with_targets) {
  const io::MeshData& mesh = collection_block(file, spec.block, c.file.string());
  CollectionColumns inputs(file, mesh, c, spec), outputs(file, mesh, c, spec),
      weights(file, mesh, c, spec);
  for (const auto& channel : spec.inputs) inputs.add(channel);
  for (const auto& name : spec.parameters) inputs.add_parameter(name);
  if (with_targets)
    for (const auto& channel : spec.outputs) outputs.add(channel);
  CollectionRows rows;
  rows.input_names = inputs.names();
  rows.output_names = outputs.names();
  rows.inputs = inputs.matrix("inputs");
  rows.targets = outputs.matrix("targets");
  if (mesh.kind == io::MeshKind::kStructured || mesh.kind == io::MeshKind::kImage)
    for (int d = 0; d < 3; ++d) {
      const long n = mesh.extent[2 * d + 1] - mesh.extent[2 * d] + (spec.on_cells ? 0 : 1);
      if (n > 1) rows.grid.push_back(n);
    }
  if (!spec.weight.empty()) {
    weights.add(spec.weight);
    if (weights.names().size() != 1)
      throw InputError("the weight '" + spec.weight + "' must be a single channel",
                       {c.file.string()});
    rows.weights = weights.matrix("weights");
    for (std::size_t r = 0; r < rows.weights.extent(0); ++r)
      if (!(rows.weights(r, 0) >= 0))
        throw InputError(fmt::format("weight '{}' is negative or NaN at row {}", spec.weight, r),
                         {c.file.string()});
  }
  return rows;
}

}  // namespace surrox::training
