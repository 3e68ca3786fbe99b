// ctest-labels: unit
// ctest-libraries: surrox_io_vtk
// Derived geometry through VTK's filters against hand-computed values: cell volumes of unit
// hexahedra and a tetrahedron, areas of image cells, cell centres, image point coordinates,
// and point-to-surface distances to a unit square (|z| above it, Euclidean off its corner).
#include "io/vtk_geometry.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "vtk_test_meshes.hpp"

namespace surrox::io {
namespace {

using namespace surrox::io::testing;

TEST(VtkGeometry, CellSizesAndCentres) {
  const MeshData grid = unstructured_mesh();
  const auto sizes = cell_sizes(grid);
  ASSERT_EQ(sizes.size(), 3u);
  EXPECT_NEAR(sizes[0], 1.0, 1e-12);  // unit cubes
  EXPECT_NEAR(sizes[1], 1.0, 1e-12);
  // Tetrahedron (1,0,1) (2,0,1) (2,1,1) (1.5,0.5,2): |det[(1,0,0), (1,1,0), (.5,.5,1)]| / 6.
  EXPECT_NEAR(sizes[2], 1.0 / 6.0, 1e-12);
  const auto centres = cell_centers(grid);
  EXPECT_NEAR(centres(0, 0), 0.5, 1e-12);
  EXPECT_NEAR(centres(1, 0), 1.5, 1e-12);
  EXPECT_NEAR(centres(1, 2), 0.5, 1e-12);

  MeshData image = image_mesh({0, 4, 0, 3, 0, 0});  // 2-D: spacing 0.1 × 0.2
  const auto areas = cell_sizes(image);
  ASSERT_EQ(areas.size(), 12u);
  for (double a : areas) EXPECT_NEAR(a, 0.1 * 0.2, 1e-14);
  const auto xyz = point_coordinates(image);
  ASSERT_EQ(xyz.extent(0), 20u);
  EXPECT_NEAR(xyz(19, 0), 0.5 + 4 * 0.1, 1e-14);
  EXPECT_NEAR(xyz(19, 1), -1.0 + 3 * 0.2, 1e-14);
  EXPECT_NEAR(xyz(19, 2), 2.0, 1e-14);
}

TEST(VtkGeometry, DistanceToASurface) {
  MeshData square;  // the unit square in z = 0 as one quad
  square.kind = MeshKind::kPolyData;
  square.points = HostArray("points", 4, 3);
  const double corners[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  for (int p = 0; p < 4; ++p)
    square.points(p, 0) = corners[p][0], square.points(p, 1) = corners[p][1];
  square.cell_types = {9};
  square.cell_offsets = {0, 4};
  square.connectivity = {0, 1, 2, 3};
  HostArray queries("q", 3, 3);
  const double q[3][3] = {{0.3, 0.6, 2.5}, {0.5, 0.5, -0.25}, {2, 3, 1}};
  for (int i = 0; i < 3; ++i)
    for (int d = 0; d < 3; ++d) queries(i, d) = q[i][d];
  const auto distance = distance_to_cells(square, queries);
  EXPECT_NEAR(distance[0], 2.5, 1e-12);
  EXPECT_NEAR(distance[1], 0.25, 1e-12);
  EXPECT_NEAR(distance[2], std::sqrt(1.0 + 4.0 + 1.0), 1e-12);  // to the corner (1, 1, 0)
  EXPECT_THROW(distance_to_cells(MeshData{}, queries), InputError);
}

}  // namespace
}  // namespace surrox::io
