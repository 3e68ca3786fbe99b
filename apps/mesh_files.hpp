#pragma once
// Format dispatch for `info` and `convert`: any VTK/ParaView file or series, or a surrox
// HDF5 dataset, read into a MeshCollection and written back out, chosen by file extension.
#include <filesystem>
#include <nlohmann/json.hpp>

#include "io/mesh_data.hpp"

namespace surrox::apps {

io::MeshCollection read_mesh_file(const std::filesystem::path& path);
// .h5/.hdf5: one dataset; .pvd: one file per entry beside it; .vti/.vts/.vtu/.vtp: one entry.
// Returns the files written.
std::vector<std::filesystem::path> write_mesh_file(const io::MeshCollection& collection,
                                                   const std::filesystem::path& path);

// Arrays, shapes, value ranges and time steps, for `surrox info` and summary.json.
nlohmann::json describe_collection(const io::MeshCollection& collection);

}  // namespace surrox::apps
