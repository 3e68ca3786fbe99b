#include "apps/mesh_files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "io/hdf5_dataset.hpp"
#include "io/vtk_reader.hpp"
#include "io/vtk_series.hpp"
#include "io/vtk_writer.hpp"

namespace surrox::apps {
namespace {

nlohmann::json describe_array(const io::NamedArray& array) {
  nlohmann::json a;
  a["name"] = array.name;
  a["tuples"] = array.tuples();
  a["components"] = array.components();
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  std::size_t non_finite = 0;
  const double* v = array.values.data();
  for (std::size_t i = 0; i < array.values.size(); ++i) {
    if (std::isfinite(v[i])) {
      lo = std::min(lo, v[i]);
      hi = std::max(hi, v[i]);
    } else {
      ++non_finite;
    }
  }
  if (lo <= hi) a["range"] = {lo, hi};
  if (non_finite) a["non_finite"] = non_finite;
  return a;
}

}  // namespace

io::MeshCollection read_mesh_file(const std::filesystem::path& path) {
  if (io::is_hdf5_file(path)) return io::read_hdf5_dataset(path);
  if (io::is_vtk_file(path)) return io::read_vtk(path);
  throw InputError(
      "unknown file type; readable: .h5 .hdf5 .vti .vts .vtu .vtp .vtm .pvd .pvti "
      ".pvts .pvtu .vtk",
      {path.string()});
}

std::vector<std::filesystem::path> write_mesh_file(const io::MeshCollection& collection,
                                                   const std::filesystem::path& path) {
  if (collection.entries.empty())
    throw InputError("nothing to write: no datasets", {path.string()});
  const std::string ext = path.extension().string();
  if (io::is_hdf5_file(path)) {
    io::write_hdf5_dataset(collection, path);
    return {path};
  }
  if (ext == ".pvd") {
    std::vector<std::filesystem::path> written;
    io::PvdSeries series(path);
    const std::string stem = path.stem().string();
    for (std::size_t i = 0; i < collection.entries.size(); ++i) {
      const auto& entry = collection.entries[i];
      const auto file = path.parent_path() / stem /
                        fmt::format("{}_{:06d}{}", stem, i, io::vtk_extension(entry.mesh.kind));
      io::write_vtk(entry.mesh, file);
      // Blocks of a multiblock are parts of one step, as ParaView writes them.
      const bool block = collection.kind == io::MeshCollection::Kind::kMultiBlock;
      series.add(entry.time, file, block ? static_cast<int>(i) : 0);
      written.push_back(file);
    }
    written.push_back(path);
    return written;
  }
  if (ext == ".vti" || ext == ".vts" || ext == ".vtu" || ext == ".vtp") {
    if (collection.entries.size() != 1)
      throw InputError(fmt::format("{} datasets cannot go into one {} file; write a .pvd or .h5",
                                   collection.entries.size(), ext),
                       {path.string()});
    const auto& mesh = collection.entries.front().mesh;
    if (io::vtk_extension(mesh.kind) != ext)
      throw InputError("a " + io::to_string(mesh.kind) + " dataset is written as " +
                           io::vtk_extension(mesh.kind) + ", not " + ext,
                       {path.string()});
    io::write_vtk(mesh, path);
    return {path};
  }
  throw InputError("cannot write this file type; writable: .h5 .hdf5 .pvd .vti .vts .vtu .vtp",
                   {path.string()});
}

nlohmann::json describe_collection(const io::MeshCollection& collection) {
  nlohmann::json out;
  static const char* kinds[] = {"single", "time series", "multiblock"};
  out["collection"] = kinds[static_cast<int>(collection.kind)];
  out["entries"] = nlohmann::json::array();
  for (const auto& entry : collection.entries) {
    nlohmann::json e;
    e["time"] = entry.time;
    e["name"] = entry.name;
    e["mesh"] = io::to_string(entry.mesh.kind);
    e["points"] = entry.mesh.number_of_points();
    e["cells"] = entry.mesh.number_of_cells();
    if (entry.mesh.kind == io::MeshKind::kImage || entry.mesh.kind == io::MeshKind::kStructured)
      e["dimensions"] = entry.mesh.dimensions();
    e["point_arrays"] = nlohmann::json::array();
    for (const auto& a : entry.mesh.point_data) e["point_arrays"].push_back(describe_array(a));
    e["cell_arrays"] = nlohmann::json::array();
    for (const auto& a : entry.mesh.cell_data) e["cell_arrays"].push_back(describe_array(a));
    out["entries"].push_back(e);
  }
  return out;
}

}  // namespace surrox::apps
