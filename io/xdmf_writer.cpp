#include "io/xdmf_writer.hpp"

#include <cstdio>
#include <sstream>

#include "core/atomic_file.hpp"
#include "io/xml_text.hpp"

namespace surrox::io {

namespace {

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

std::string join(const std::vector<std::size_t>& values) {
  std::string text;
  for (std::size_t i = 0; i < values.size(); ++i)
    text += (i ? " " : "") + std::to_string(values[i]);
  return text;
}

bool structured(MeshKind kind) { return kind == MeshKind::kImage || kind == MeshKind::kStructured; }

// Spatial dims of a field dataset (without time and components), slowest first.
std::vector<std::size_t> spatial_dims(const XdmfDescription& d, bool on_cells) {
  if (structured(d.kind)) {
    std::vector<std::size_t> dims;
    for (int axis = 2; axis >= 0; --axis) {
      const long n = d.point_dims[axis];
      dims.push_back(static_cast<std::size_t>(on_cells ? (n > 1 ? n - 1 : 1) : n));
    }
    return dims;
  }
  return {on_cells ? d.number_of_cells : d.number_of_points};
}

const char* attribute_type(std::size_t components) {
  switch (components) {
    case 1:
      return "Scalar";
    case 3:
      return "Vector";
    case 6:
      return "Tensor6";
    case 9:
      return "Tensor";
    default:
      return "Matrix";
  }
}

// "file.h5:/mesh/points", or "file.h5:/blocks/inlet/mesh/points" for a block of a multiblock.
std::string heavy(const XdmfDescription& d, const std::string& object) {
  return detail::xml_escaped(d.h5_reference + ":" + d.h5_group + "/" + object);
}

void write_mesh(std::ostream& out, const XdmfDescription& d, const std::string& indent) {
  const auto point_dims = join(spatial_dims(d, false));
  // A single layer of points (nk = 1) must use XDMF's 2D topologies: with 3D ones ParaView
  // counts (nk - 1) = 0 cell layers and drops every cell array.
  const bool flat = structured(d.kind) && d.point_dims[2] == 1;
  const std::string mesh_dims =
      flat ? std::to_string(d.point_dims[1]) + " " + std::to_string(d.point_dims[0]) : point_dims;
  switch (d.kind) {
    case MeshKind::kImage:
      out << indent << "<Topology TopologyType=\"" << (flat ? "2DCoRectMesh" : "3DCoRectMesh")
          << "\" Dimensions=\"" << mesh_dims << "\"/>\n"
          << indent << "<Geometry GeometryType=\"" << (flat ? "ORIGIN_DXDY" : "ORIGIN_DXDYDZ")
          << "\">\n"
          << indent << "  <DataItem Dimensions=\"" << (flat ? 2 : 3)
          << "\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">"
          << (flat ? "" : number(d.origin[2]) + " ") << number(d.origin[1]) << ' '
          << number(d.origin[0]) << "</DataItem>\n"
          << indent << "  <DataItem Dimensions=\"" << (flat ? 2 : 3)
          << "\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">"
          << (flat ? "" : number(d.spacing[2]) + " ") << number(d.spacing[1]) << ' '
          << number(d.spacing[0]) << "</DataItem>\n"
          << indent << "</Geometry>\n";
      return;
    case MeshKind::kStructured:
      out << indent << "<Topology TopologyType=\"" << (flat ? "2DSMesh" : "3DSMesh")
          << "\" Dimensions=\"" << mesh_dims << "\"/>\n"
          << indent << "<Geometry GeometryType=\"XYZ\">\n"
          << indent << "  <DataItem Dimensions=\"" << point_dims
          << " 3\" NumberType=\"Float\" Precision=\"8\" "
          << "Format=\"HDF\">" << heavy(d, "mesh/points") << "</DataItem>\n"
          << indent << "</Geometry>\n";
      return;
    case MeshKind::kUnstructured:
    case MeshKind::kPolyData:
      if (d.mixed_topology_length > 0) {
        out << indent << "<Topology TopologyType=\"Mixed\" NumberOfElements=\"" << d.number_of_cells
            << "\">\n"
            << indent << "  <DataItem Dimensions=\"" << d.mixed_topology_length
            << "\" NumberType=\"Int\" Precision=\"8\" Format=\"HDF\">"
            << heavy(d, "mesh/xdmf_topology") << "</DataItem>\n"
            << indent << "</Topology>\n";
      } else {
        out << indent << "<Topology TopologyType=\"Polyvertex\" NumberOfElements=\""
            << d.number_of_points << "\" NodesPerElement=\"1\"/>\n";
      }
      out << indent << "<Geometry GeometryType=\"XYZ\">\n"
          << indent << "  <DataItem Dimensions=\"" << d.number_of_points
          << " 3\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << heavy(d, "mesh/points")
          << "</DataItem>\n"
          << indent << "</Geometry>\n";
      return;
  }
}

void write_field(std::ostream& out, const XdmfDescription& d, const XdmfField& field,
                 std::size_t step, const std::string& indent) {
  if (field.on_cells && !structured(d.kind) && d.mixed_topology_length == 0) return;
  std::vector<std::size_t> dims = spatial_dims(d, field.on_cells);
  if (field.components > 1) dims.push_back(field.components);
  std::vector<std::size_t> start(dims.size() + 1, 0), stride(dims.size() + 1, 1), count{1},
      full{d.times.size()};
  start[0] = step;
  count.insert(count.end(), dims.begin(), dims.end());
  full.insert(full.end(), dims.begin(), dims.end());
  // A single layer (nk = 1) is shown to XDMF as 2D, so the slab's shape drops that axis too.
  std::vector<std::size_t> slab_dims = dims;
  if (structured(d.kind) && d.point_dims[2] == 1) slab_dims.erase(slab_dims.begin());
  out << indent << "<Attribute Name=\"" << detail::xml_escaped(field.name) << "\" AttributeType=\""
      << attribute_type(field.components) << "\" Center=\"" << (field.on_cells ? "Cell" : "Node")
      << "\">\n"
      // The slab's own shape drops the time axis: ParaView's Xdmf2 reader expects
      // [nk, nj, ni(, C)] for structured grids (a leading 1 made it misread or drop arrays).
      << indent << "  <DataItem ItemType=\"HyperSlab\" Dimensions=\"" << join(slab_dims)
      << "\" Type=\"HyperSlab\">\n"
      << indent << "    <DataItem Dimensions=\"3 " << count.size() << "\" Format=\"XML\">"
      << join(start) << "  " << join(stride) << "  " << join(count) << "</DataItem>\n"
      << indent << "    <DataItem Dimensions=\"" << join(full)
      << "\" NumberType=\"Float\" Precision=\"8\" "
      << "Format=\"HDF\">" << heavy(d, "fields/" + field.name) << "</DataItem>\n"
      << indent << "  </DataItem>\n"
      << indent << "</Attribute>\n";
}

}  // namespace

std::string xdmf_document(const XdmfDescription& d) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" ?>\n"
      << "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
      << "<!-- surrox dataset sidecar: heavy data in " << detail::xml_escaped(d.h5_reference)
      << " (docs/formats.md) -->\n"
      << "<Xdmf Version=\"2.0\">\n"
      << "  <Domain>\n";
  if (d.times.empty()) {
    out << "    <Grid Name=\"mesh\" GridType=\"Uniform\">\n";
    write_mesh(out, d, "      ");
    out << "    </Grid>\n";
  } else {
    out << "    <Grid Name=\"series\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
    for (std::size_t step = 0; step < d.times.size(); ++step) {
      out << "      <Grid Name=\"step_" << step << "\" GridType=\"Uniform\">\n"
          << "        <Time Value=\"" << number(d.times[step]) << "\"/>\n";
      write_mesh(out, d, "        ");
      for (const auto& field : d.fields) write_field(out, d, field, step, "        ");
      out << "      </Grid>\n";
    }
    out << "    </Grid>\n";
  }
  out << "  </Domain>\n"
      << "</Xdmf>\n";
  return out.str();
}

std::string xdmf_collection_document(const std::vector<XdmfDescription>& blocks) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" ?>\n"
      << "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
      << "<!-- surrox multiblock sidecar: heavy data in "
      << detail::xml_escaped(blocks.empty() ? std::string() : blocks.front().h5_reference)
      << " (docs/formats.md) -->\n"
      << "<Xdmf Version=\"2.0\">\n"
      << "  <Domain>\n"
      << "    <Grid Name=\"blocks\" GridType=\"Collection\" CollectionType=\"Spatial\">\n";
  for (const auto& d : blocks) {
    out << "      <Grid Name=\"" << detail::xml_escaped(d.grid_name)
        << "\" GridType=\"Uniform\">\n";
    write_mesh(out, d, "        ");
    if (!d.times.empty())
      for (const auto& field : d.fields) write_field(out, d, field, d.times.size() - 1, "        ");
    out << "      </Grid>\n";
  }
  out << "    </Grid>\n"
      << "  </Domain>\n"
      << "</Xdmf>\n";
  return out.str();
}

void write_xdmf(const std::filesystem::path& path, const XdmfDescription& description) {
  write_text_atomically(path, xdmf_document(description));
}

std::filesystem::path xdmf_path_for(const std::filesystem::path& h5_path) {
  auto path = h5_path;
  path.replace_extension(".xdmf");
  return path;
}

int xdmf_cell_type(int vtk_type, bool* needs_count) {
  *needs_count = false;
  switch (vtk_type) {
    case 1:
    case 2:
      *needs_count = true;
      return 1;  // vertex, poly vertex → Polyvertex
    case 3:
    case 4:
      *needs_count = true;
      return 2;  // line, poly line → Polyline
    case 7:
      *needs_count = true;
      return 3;  // polygon
    case 5:
      return 4;  // triangle
    case 8:
    case 9:
      return 5;  // pixel (reordered), quad → Quadrilateral
    case 10:
      return 6;  // tetra
    case 14:
      return 7;  // pyramid
    case 13:
      return 8;  // wedge
    case 11:
    case 12:
      return 9;  // voxel (reordered), hexahedron
    case 21:
      return 34;  // quadratic edge → Edge_3
    case 22:
      return 36;  // quadratic triangle → Tri_6
    case 23:
      return 37;  // quadratic quad → Quad_8
    case 24:
      return 38;  // quadratic tetra → Tet_10
    case 27:
      return 39;  // quadratic pyramid → Pyramid_13
    case 26:
      return 40;  // quadratic wedge → Wedge_15
    case 25:
      return 48;  // quadratic hexahedron → Hex_20
    default:
      return -1;  // triangle strip, polyhedron, ...
  }
}

}  // namespace surrox::io
