#pragma once
// Cases and channels of a training dataset read from a collection of VTK/ParaView files or
// OpenFOAM case folders (no LibTorch here): which files make the cases (a glob, or a CSV/YAML
// manifest of file and parameters), and how one file becomes rows of input, target and weight
// values — named point or cell arrays, derived channels (coordinates, distance to a surface block,
// cell sizes) and the case's parameters broadcast to every row. The same code turns a held-out file
// into a trained model's inputs, from the description the model's metadata keeps (to_json).
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/mesh_data.hpp"

namespace surrox::training {

struct CollectionCase {
  std::string name;                               // the file's stem, or the manifest's `name`
  std::filesystem::path file;                     // absolute; a VTK file or an OpenFOAM case
  std::map<std::string, std::string> parameters;  // manifest columns, as written
  std::string where;                              // "manifest.csv:3" for error messages
  // An OpenFOAM case folder's time from the manifest's `time` column (which stays a parameter
  // too); "": the data section's `time`. Unused for VTK files.
  std::string time;
};

// What makes the cases: a manifest (.csv, .yaml, .yml), a glob pattern of VTK files or OpenFOAM
// case folders (a folder with system/controlDict), or a folder (its manifest, else itself when
// it is an OpenFOAM case, else its VTK files and OpenFOAM case sub-folders), relative to `base`
// when not absolute. CSV: a header line whose first column is `file`, an
// optional `name` column, then one column per parameter; one case per line, no quoting (a
// value holds no comma); '#' starts a comment line. YAML: a list of maps, each with `file`
// and the parameters (or {cases: [...]}). Files are relative to the manifest's folder.
// For an OpenFOAM case folder a `time` column or key (`latest` or a time) names the time read.
// InputError naming the manifest and line for a malformed manifest, a missing file, or a
// glob that matches nothing. `fingerprint_text` gets the manifest's text (empty for a glob).
std::vector<CollectionCase> collection_cases(const std::string& files,
                                             const std::filesystem::path& base,
                                             std::string* fingerprint_text = nullptr);

struct CollectionChannelSpec {
  bool on_cells = false;  // rows are cells (true) or points
  std::string block;      // the block of a multiblock that holds the arrays; "": the first
  std::vector<std::string> inputs, outputs, parameters;
  std::string weight;  // "", "cell_size" or a one-component array

  nlohmann::json to_json() const;
  static CollectionChannelSpec from_json(const nlohmann::json& j, const std::string& source);
};

// Derived channels, in addition to array names (`name` or `name[k]`): the row's coordinates
// (points, or cell centres), the distance to the cells of another block, the cell's size.
inline constexpr const char* kCoordinateChannels[] = {"coord_x", "coord_y", "coord_z"};
inline constexpr const char* kDistancePrefix = "distance_to:";
inline constexpr const char* kCellSizeChannel = "cell_size";

struct CollectionRows {
  std::vector<std::string> input_names, output_names;  // expanded: velocity → velocity[0..2]
  io::HostArray inputs, targets, weights;  // rows × channels; weights rows × 1 or empty
  // The rows' structured grid (ni, nj[, nk]: points or cells per direction with more than one,
  // rows in VTK order, i fastest) when the block is a .vts or .vti; empty otherwise.
  std::vector<long> grid;
};

// One case's file: io::read_vtk for a VTK file, io::read_openfoam_case for an OpenFOAM case
// folder at the case's `time` ("" : `default_time`, "latest" or a time).
io::MeshCollection read_collection_case(const CollectionCase& c, const std::string& default_time);

// One case's rows. `with_targets` false: outputs are not read (a file to predict on). An
// InputError names the file and says what is missing and what the file has.
CollectionRows collection_rows(const io::MeshCollection& file, const CollectionCase& c,
                               const CollectionChannelSpec& spec, bool with_targets = true);

// The dataset of one case: its block named `block` ("" : the first block of a multiblock, the
// last step of a series, the one dataset of a file).
const io::MeshData& collection_block(const io::MeshCollection& file, const std::string& block,
                                     const std::string& source);

}  // namespace surrox::training
