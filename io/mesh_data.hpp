#pragma once
// The in-memory form of one VTK dataset as surrox reads and writes it: geometry, topology
// and named point and cell arrays in host Kokkos Views (LayoutRight, row = point or cell,
// column = component). Readers fill it from any VTK/ParaView file; writers take it; HDF5
// datasets store it; surrogates::as_tensor turns its arrays into tensors without a copy.
#include <Kokkos_Core.hpp>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace surrox::io {

using HostArray = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;

enum class MeshKind {
  kImage,         // vtkImageData: extent, origin, spacing (.vti)
  kStructured,    // vtkStructuredGrid: curvilinear, extent + points (.vts)
  kUnstructured,  // vtkUnstructuredGrid: points + cells (.vtu)
  kPolyData,      // vtkPolyData: points + verts/lines/polys (.vtp); particles are vertices
};

std::string to_string(MeshKind kind);

// A named array: n tuples of `components` values, stored as an n × components View.
struct NamedArray {
  std::string name;
  HostArray values;
  std::size_t tuples() const { return values.extent(0); }
  std::size_t components() const { return values.extent(1); }
};

struct MeshData {
  MeshKind kind = MeshKind::kUnstructured;
  // kImage and kStructured: point extent [i0, i1, j0, j1, k0, k1] (inclusive, VTK convention).
  std::array<long, 6> extent{0, 0, 0, 0, 0, 0};
  std::array<double, 3> origin{0, 0, 0};   // kImage
  std::array<double, 3> spacing{1, 1, 1};  // kImage
  // kStructured, kUnstructured, kPolyData: n_points × 3 coordinates. Empty for kImage.
  HostArray points;
  // kUnstructured and kPolyData: cells as VTK cell types, offsets (n_cells + 1) and connectivity.
  std::vector<std::uint8_t> cell_types;
  std::vector<std::int64_t> cell_offsets;
  std::vector<std::int64_t> connectivity;
  std::vector<NamedArray> point_data;
  std::vector<NamedArray> cell_data;

  std::size_t number_of_points() const;
  std::size_t number_of_cells() const;
  // Point counts along i, j, k for kImage and kStructured.
  std::array<long, 3> dimensions() const;
  const NamedArray* find_point_array(const std::string& name) const;
  const NamedArray* find_cell_array(const std::string& name) const;
};

// One time step of a series (.pvd) or one block of a multiblock file (.vtm).
struct MeshEntry {
  double time = 0.0;
  std::string name;  // block name for .vtm, file name for .pvd
  MeshData mesh;
};

// What a reader returns: a single dataset has one entry; a .pvd has one per time step; a .vtm
// one per leaf block.
struct MeshCollection {
  enum class Kind { kSingle, kTimeSeries, kMultiBlock } kind = Kind::kSingle;
  std::vector<MeshEntry> entries;
};

}  // namespace surrox::io
