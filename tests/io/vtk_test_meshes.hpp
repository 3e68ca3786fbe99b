#pragma once
// Small meshes of every kind with known values, shared by the VTK reader/writer tests.
#include <gtest/gtest.h>

#include <cmath>

#include "io/mesh_data.hpp"

namespace surrox::io::testing {

inline HostArray filled(const std::string& name, std::size_t tuples, std::size_t components,
                        double seed) {
  HostArray values(name, tuples, components);
  for (std::size_t t = 0; t < tuples; ++t)
    for (std::size_t c = 0; c < components; ++c)
      values(t, c) = std::sin(seed + 0.37 * t + 1.1 * c) * 100.0;
  return values;
}

// Point data: a scalar and a 3-vector; cell data: a scalar and a 2-component array.
inline void add_arrays(MeshData& mesh, double seed = 0.0) {
  mesh.point_data.push_back({"pressure", filled("pressure", mesh.number_of_points(), 1, seed)});
  mesh.point_data.push_back({"velocity", filled("velocity", mesh.number_of_points(), 3, seed + 1)});
  mesh.cell_data.push_back({"rank id", filled("rank id", mesh.number_of_cells(), 1, seed + 2)});
  mesh.cell_data.push_back({"stress2", filled("stress2", mesh.number_of_cells(), 2, seed + 3)});
}

// An image with the given point extent in a global index space.
inline MeshData image_mesh(std::array<long, 6> extent = {0, 4, 0, 3, 0, 2}) {
  MeshData mesh;
  mesh.kind = MeshKind::kImage;
  mesh.extent = extent;
  mesh.origin = {0.5, -1.0, 2.0};
  mesh.spacing = {0.1, 0.2, 0.25};
  return mesh;
}

// A global field on image points, so that pieces of a partitioned image agree on shared points.
inline double image_field(long i, long j, long k) { return 1000.0 * k + 100.0 * j + i + 0.5; }

inline MeshData structured_mesh() {
  MeshData mesh;
  mesh.kind = MeshKind::kStructured;
  mesh.extent = {0, 3, 0, 2, 0, 1};
  const auto d = mesh.dimensions();
  mesh.points = HostArray("points", d[0] * d[1] * d[2], 3);
  std::size_t p = 0;
  for (long k = 0; k < d[2]; ++k)
    for (long j = 0; j < d[1]; ++j)
      for (long i = 0; i < d[0]; ++i, ++p) {  // a sheared, curved grid
        mesh.points(p, 0) = i + 0.3 * j;
        mesh.points(p, 1) = j + 0.1 * i * i;
        mesh.points(p, 2) = 0.5 * k;
      }
  return mesh;
}

// Two hexahedra and a tetrahedron sharing points; x offset by `shift` (for pieces).
inline MeshData unstructured_mesh(double shift = 0.0) {
  MeshData mesh;
  mesh.kind = MeshKind::kUnstructured;
  const double xyz[13][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0},    {0, 1, 0}, {0, 0, 1},
                             {1, 0, 1}, {1, 1, 1}, {0, 1, 1},    {2, 0, 0}, {2, 1, 0},
                             {2, 0, 1}, {2, 1, 1}, {1.5, 0.5, 2}};
  mesh.points = HostArray("points", 13, 3);
  for (int p = 0; p < 13; ++p)
    for (int d = 0; d < 3; ++d) mesh.points(p, d) = xyz[p][d] + (d == 0 ? shift : 0.0);
  mesh.cell_types = {12, 12, 10};  // VTK_HEXAHEDRON ×2, VTK_TETRA
  mesh.cell_offsets = {0, 8, 16, 20};
  mesh.connectivity = {0, 1, 2, 3, 4, 5, 6, 7, 1, 8, 9, 2, 5, 10, 11, 6, 5, 10, 11, 12};
  return mesh;
}

// Polydata whose cells are interleaved by kind (the writer must reorder them and their data):
// triangle, vertex, quad, line, polyline, polygon, strip.
inline MeshData polydata_mesh() {
  MeshData mesh;
  mesh.kind = MeshKind::kPolyData;
  mesh.points = filled("points", 8, 3, 7.0);
  mesh.cell_types = {5, 1, 9, 3, 4, 7, 6};
  mesh.connectivity = {0,
                       1,
                       2,
                       /*vertex*/ 7,
                       /*quad*/ 0,
                       1,
                       3,
                       4,
                       /*line*/ 5,
                       6,
                       /*polyline*/ 1,
                       2,
                       3,
                       4,
                       /*polygon*/ 0,
                       2,
                       4,
                       6,
                       7,
                       /*strip*/ 3,
                       4,
                       5,
                       6};
  mesh.cell_offsets = {0, 3, 4, 8, 10, 14, 19, 23};
  return mesh;
}

// A cell's type and point ids, to compare cells whatever their order.
inline std::vector<std::int64_t> cell_of(const MeshData& mesh, std::size_t c) {
  std::vector<std::int64_t> out{mesh.cell_types[c]};
  out.insert(out.end(), mesh.connectivity.begin() + mesh.cell_offsets[c],
             mesh.connectivity.begin() + mesh.cell_offsets[c + 1]);
  return out;
}

inline void expect_arrays_equal(const std::vector<NamedArray>& expected, const MeshData& actual,
                                bool point) {
  for (const auto& want : expected) {
    const NamedArray* got =
        point ? actual.find_point_array(want.name) : actual.find_cell_array(want.name);
    ASSERT_NE(got, nullptr) << "array '" << want.name << "' missing";
    ASSERT_EQ(got->tuples(), want.tuples()) << want.name;
    ASSERT_EQ(got->components(), want.components()) << want.name;
    for (std::size_t t = 0; t < want.tuples(); ++t)
      for (std::size_t c = 0; c < want.components(); ++c)
        ASSERT_EQ(got->values(t, c), want.values(t, c))
            << want.name << " tuple " << t << " component " << c;
  }
}

inline void expect_points_equal(const HostArray& expected, const HostArray& actual) {
  ASSERT_EQ(actual.extent(0), expected.extent(0));
  ASSERT_EQ(actual.extent(1), expected.extent(1));
  for (std::size_t p = 0; p < expected.extent(0); ++p)
    for (std::size_t d = 0; d < expected.extent(1); ++d)
      ASSERT_EQ(actual(p, d), expected(p, d)) << "point " << p;
}

}  // namespace surrox::io::testing
