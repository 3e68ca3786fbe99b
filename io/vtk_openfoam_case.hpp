#pragma once
// Reading an OpenFOAM case folder (a folder with system/controlDict) through VTK's
// vtkOpenFOAMReader, so that no foamToVTK step is needed. One time directory is read:
//   "internalMesh"         the cells (unstructured grid), first, as in ParaView
//   "boundary/<patch>"     each patch (polydata of its faces, face values as cell data), named
//                          as foamToVTK's .vtm names them, so `distance_to:boundary/wall` is
//                          the same for both
// Cell data are the field values of the time directory (one row per OpenFOAM cell; a mesh with
// polyhedral cells is refused, as MeshData keeps no polyhedron faces); point data are
// vtkOpenFOAMReader's cell-to-point interpolation (docs/formats.md says how it differs from
// foamToVTK's). VTK reads values and coordinates in single precision, as foamToVTK writes them;
// MeshData holds them as doubles. Every problem (no controlDict, no mesh, an unknown time, a file
// VTK cannot parse, polyhedra) is an InputError naming the folder and, where there are some, the
// valid choices.
#include <filesystem>
#include <string>
#include <vector>

#include "io/mesh_data.hpp"

namespace surrox::io {

inline constexpr const char* kOpenFoamLatestTime = "latest";

// True when `path` is a folder holding system/controlDict.
bool is_openfoam_case(const std::filesystem::path& path);

// The case's time directories as named ("0", "0.005", ...), in increasing time.
std::vector<std::string> openfoam_times(const std::filesystem::path& folder);

// One time of the case: "latest" (the last time directory) or a time, matched to a directory by
// value ("0.01" finds 0.01 and 1e-2). Entries carry that time.
MeshCollection read_openfoam_case(const std::filesystem::path& folder,
                                  const std::string& time = kOpenFoamLatestTime);

}  // namespace surrox::io
