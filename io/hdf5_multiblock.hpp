#pragma once
// surrox HDF5 multiblock files (format `surrox-multiblock`): every block of a ParaView
// multiblock (.vtm), each with its own mesh kind, as one group /blocks/<block name> laid out
// exactly like a surrox-dataset root (mesh, fields, time, attributes), so that
// Hdf5DatasetReader(path, "/blocks/<name>") reads one block. An .xdmf sidecar presents the
// blocks to ParaView as a spatial collection. Layout: docs/formats.md.
#include <filesystem>
#include <string>
#include <vector>

#include "io/mesh_data.hpp"

namespace surrox::io {

// The root attribute `format` of an HDF5 file ("" when it has none); InputError when the file
// cannot be opened as HDF5.
std::string hdf5_format(const std::filesystem::path& path);

// One group per entry, named by entry.name ('/' in a name nests groups: "boundary/inlet" is
// /blocks/boundary/inlet), in entry order. Names must be non-empty path components without
// "." or "..", unique, and no name may be the parent folder of another (InputError).
// Written under a temporary name and renamed; the sidecar "<stem>.xdmf" is written after.
void write_hdf5_multiblock(const MeshCollection& blocks, const std::filesystem::path& path,
                           const std::string& producer = "surrox convert");

// The block names in file order ("internalMesh", "boundary/inlet", ...).
std::vector<std::string> hdf5_multiblock_blocks(const std::filesystem::path& path);

// Every block with its fields at every step: kMultiBlock, one entry per block (entry name = block
// name; a block with several steps gives one entry per step named "<block>/step_<n>").
MeshCollection read_hdf5_multiblock(const std::filesystem::path& path);

}  // namespace surrox::io
