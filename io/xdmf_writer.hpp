#pragma once
// XDMF 2 sidecars for surrox HDF5 datasets: a small XML file that points ParaView's XDMF
// reader at the heavy data in the .h5 file (a temporal collection of grids, one per time
// step, each field a HyperSlab of /fields/<name>). Layout: docs/formats.md.
#include <array>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "io/mesh_data.hpp"

namespace surrox::io {

struct XdmfField {
  std::string name;
  bool on_cells = false;
  std::size_t components = 1;
};

// What the sidecar needs to know about the dataset it describes.
struct XdmfDescription {
  std::string h5_reference;  // the .h5 file as the XML names it: relative to the sidecar's folder
  std::string h5_group;      // "" for a dataset file, "/blocks/<name>" for a block of a multiblock
  std::string grid_name;     // the block's name in a collection document
  MeshKind kind = MeshKind::kImage;
  std::array<long, 3> point_dims{1, 1, 1};                  // ni, nj, nk (image, structured)
  std::array<double, 3> origin{0, 0, 0}, spacing{1, 1, 1};  // x, y, z (image)
  std::size_t number_of_points = 0, number_of_cells = 0;
  // Length of /mesh/xdmf_topology (unstructured, polydata); 0 when the cells have no XDMF
  // equivalent, and the sidecar then shows the points only (Polyvertex) without cell fields.
  std::size_t mixed_topology_length = 0;
  std::vector<double> times;
  std::vector<XdmfField> fields;
};

// The XML text.
std::string xdmf_document(const XdmfDescription& description);
// A spatial collection (ParaView shows a multiblock): one Uniform grid per block, named by
// grid_name, with the fields of the block's last step.
std::string xdmf_collection_document(const std::vector<XdmfDescription>& blocks);
// Writes it under `path` atomically (temporary name, then rename).
void write_xdmf(const std::filesystem::path& path, const XdmfDescription& description);
// The sidecar path of a dataset: "run.h5" → "run.xdmf".
std::filesystem::path xdmf_path_for(const std::filesystem::path& h5_path);

// XDMF's code for a VTK cell type in a Mixed topology, -1 when there is none. Cells whose
// XDMF form lists its point count (polyvertex, polyline, polygon) report needs_count.
int xdmf_cell_type(int vtk_type, bool* needs_count);

}  // namespace surrox::io
