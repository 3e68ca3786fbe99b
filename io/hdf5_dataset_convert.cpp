// Converting between a MeshCollection and an HDF5 dataset file, and recognising HDF5 files.
#include <cctype>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/contained_read.hpp"
#include "io/hdf5_dataset.hpp"
#include "io/hdf5_dataset_detail.hpp"
#include "io/hdf5_multiblock.hpp"

namespace surrox::io {

namespace {

MeshCollection read_hdf5_dataset_uncontained(const std::filesystem::path& path) {
  if (hdf5_format(path) == "surrox-multiblock") return read_hdf5_multiblock(path);
  Hdf5DatasetReader reader(path);
  const auto times = reader.times();
  const MeshData mesh = reader.mesh();
  const auto fields = reader.fields();
  MeshCollection collection;
  collection.kind =
      times.size() == 1 ? MeshCollection::Kind::kSingle : MeshCollection::Kind::kTimeSeries;
  for (std::size_t step = 0; step < times.size(); ++step) {
    MeshEntry entry;
    entry.time = times[step];
    entry.name = "step_" + std::to_string(step);
    entry.mesh = mesh;  // entries share the geometry Views
    for (const auto& field : fields) {
      NamedArray array{field.name, reader.read(field.name, step)};
      (field.on == FieldSpec::On::kCells ? entry.mesh.cell_data : entry.mesh.point_data)
          .push_back(std::move(array));
    }
    collection.entries.push_back(std::move(entry));
  }
  return collection;
}

}  // namespace

MeshCollection read_hdf5_dataset(const std::filesystem::path& path) {
  return read_contained(path.string(), "HDF5", [&] { return read_hdf5_dataset_uncontained(path); });
}

namespace {

bool same_values(const HostArray& a, const HostArray& b) {
  if (a.extent(0) != b.extent(0) || a.extent(1) != b.extent(1)) return false;
  for (std::size_t i = 0; i < a.extent(0); ++i)
    for (std::size_t c = 0; c < a.extent(1); ++c)
      if (std::memcmp(&a(i, c), &b(i, c), sizeof(double)) != 0) return false;
  return true;
}

bool same_mesh(const MeshData& a, const MeshData& b) {
  if (a.kind != b.kind) return false;
  if (is_structured(a.kind) && a.extent != b.extent) return false;
  if (a.kind == MeshKind::kImage) return a.origin == b.origin && a.spacing == b.spacing;
  if (!same_values(a.points, b.points)) return false;
  return a.cell_types == b.cell_types && a.cell_offsets == b.cell_offsets &&
         a.connectivity == b.connectivity;
}

}  // namespace

void write_hdf5_dataset(const MeshCollection& series, const std::filesystem::path& path,
                        const std::string& producer) {
  if (series.entries.empty())
    throw InputError("nothing to write to " + path.string() + ": no datasets");
  if (series.kind == MeshCollection::Kind::kMultiBlock && series.entries.size() > 1)
    return write_hdf5_multiblock(series, path, producer);
  const MeshData& first = series.entries.front().mesh;
  std::vector<FieldSpec> fields;
  std::set<std::string> names;
  for (const auto& array : first.point_data) {
    fields.push_back({array.name, FieldSpec::On::kPoints, array.components(), "", ""});
    names.insert(array.name);
  }
  // ParaView's OpenFOAM reader gives point and cell arrays of one name (p, U): the cell one is
  // stored as "<name>_cell", since one /fields group holds both.
  std::vector<std::string> source_names;  // the VTK array of each field
  for (const auto& field : fields) source_names.push_back(field.name);
  for (const auto& array : first.cell_data) {
    std::string stored = array.name;
    if (names.count(stored)) stored += "_cell";
    if (!names.insert(stored).second)
      throw InputError("cell array '" + array.name +
                           "' clashes with a point array of that name and '" + stored +
                           "' is taken too: an HDF5 dataset needs unique names",
                       ErrorContext{path.string()});
    source_names.push_back(array.name);
    fields.push_back({stored, FieldSpec::On::kCells, array.components(), "",
                      stored == array.name ? "" : "VTK cell array '" + array.name + "'"});
  }
  for (const auto& entry : series.entries) {
    if (!same_mesh(entry.mesh, first)) {
      throw InputError(std::string("time steps with different meshes are not supported") +
                           " by the HDF5 dataset format (entry '" + entry.name +
                           "' differs from '" + series.entries.front().name +
                           "'); write one file per step",
                       ErrorContext{path.string()});
    }
    for (std::size_t f = 0; f < fields.size(); ++f) {
      const auto& field = fields[f];
      const NamedArray* array = field.on == FieldSpec::On::kCells
                                    ? entry.mesh.find_cell_array(source_names[f])
                                    : entry.mesh.find_point_array(source_names[f]);
      if (!array || array->components() != field.components)
        throw InputError("entry '" + entry.name + "' lacks array '" + source_names[f] +
                             "' (or its component count differs)",
                         ErrorContext{path.string()});
    }
  }
  MeshData geometry = first;
  geometry.point_data.clear();
  geometry.cell_data.clear();
  Hdf5DatasetWriter writer(path, MPI_COMM_SELF, geometry, fields, "", producer);
  for (const auto& entry : series.entries) {
    std::vector<NamedArray> arrays;
    for (std::size_t f = 0; f < fields.size(); ++f) {
      const bool on_cells = fields[f].on == FieldSpec::On::kCells;
      const NamedArray* array = on_cells ? entry.mesh.find_cell_array(source_names[f])
                                         : entry.mesh.find_point_array(source_names[f]);
      arrays.push_back({fields[f].name, array->values});
    }
    writer.append(entry.time, arrays);
  }
  writer.close();
}

bool is_hdf5_file(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return extension == ".h5" || extension == ".hdf5";
}

}  // namespace surrox::io
