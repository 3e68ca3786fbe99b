#pragma once
// Reading VTK and ParaView files into MeshData through VTK's own reader classes.
//   .vti .vts .vtr .vtu .vtp            one XML dataset               → one entry
//   .pvti .pvts .pvtr .pvtu .pvtp       a partitioned XML dataset     → one entry, pieces merged
//   .vtk                                a legacy dataset              → one entry
//   .vtm                                an XML multiblock             → one entry per leaf block,
//                                       named by its path of block names ("boundary/inlet")
//   .pvd                                a ParaView collection         → one entry per DataSet line
// Every problem with the input (missing, empty, truncated or corrupt file, unsupported dataset
// type, a .pvd that names a missing file) is a surrox::InputError whose message starts with the
// file's path. VTK's own error output is captured into that message, not printed.
#include <filesystem>

#include "io/mesh_data.hpp"

namespace surrox::io {

// True for the extensions above (case-insensitive); looks at the name only, not the content.
bool is_vtk_file(const std::filesystem::path& path);

MeshCollection read_vtk(const std::filesystem::path& path);

// The one dataset in a file; an InputError when the file holds more than one (a .pvd with
// several steps, a .vtm with several blocks).
MeshData read_vtk_single(const std::filesystem::path& path);

}  // namespace surrox::io
