#include "io/mesh_data.hpp"

namespace surrox::io {

std::string to_string(MeshKind kind) {
  switch (kind) {
    case MeshKind::kImage:
      return "image";
    case MeshKind::kStructured:
      return "structured";
    case MeshKind::kUnstructured:
      return "unstructured";
    case MeshKind::kPolyData:
      return "polydata";
  }
  return "?";
}

std::array<long, 3> MeshData::dimensions() const {
  return {extent[1] - extent[0] + 1, extent[3] - extent[2] + 1, extent[5] - extent[4] + 1};
}

std::size_t MeshData::number_of_points() const {
  if (kind == MeshKind::kImage) {
    const auto d = dimensions();
    return static_cast<std::size_t>(d[0] * d[1] * d[2]);
  }
  return points.extent(0);
}

std::size_t MeshData::number_of_cells() const {
  if (kind == MeshKind::kImage || kind == MeshKind::kStructured) {
    std::size_t cells = 1;
    for (long d : dimensions())
      if (d > 1) cells *= static_cast<std::size_t>(d - 1);
    return number_of_points() ? cells : 0;
  }
  return cell_types.size();
}

const NamedArray* MeshData::find_point_array(const std::string& name) const {
  for (const auto& a : point_data)
    if (a.name == name) return &a;
  return nullptr;
}

const NamedArray* MeshData::find_cell_array(const std::string& name) const {
  for (const auto& a : cell_data)
    if (a.name == name) return &a;
  return nullptr;
}

}  // namespace surrox::io
