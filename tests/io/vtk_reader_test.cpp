// ctest-labels: unit
// ctest-libraries: surrox_io_vtk
// Reads the files ParaView 5.11 wrote into shared/data/paraview and checks them against the
// sizes, arrays and ranges listed in shared/data/README.md.
#include "io/vtk_reader.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "core/error.hpp"
#include "support/test_paths.hpp"

namespace surrox::io {
namespace {

using surrox::testing::shared_data;

constexpr int kAllComponents = -1;

// Minimum and maximum of one component of an array, or over all of them.
std::pair<double, double> range_of(const NamedArray& array, int component) {
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (std::size_t t = 0; t < array.tuples(); ++t)
    for (std::size_t c = 0; c < array.components(); ++c) {
      if (component != kAllComponents && static_cast<int>(c) != component) continue;
      low = std::min(low, array.values(t, c));
      high = std::max(high, array.values(t, c));
    }
  return {low, high};
}

void expect_range(const NamedArray* array, double low, double high, double tolerance,
                  int component = kAllComponents) {
  ASSERT_NE(array, nullptr);
  const auto [got_low, got_high] = range_of(*array, component);
  EXPECT_NEAR(got_low, low, tolerance) << array->name;
  EXPECT_NEAR(got_high, high, tolerance) << array->name;
}

TEST(VtkReader, RecognisesExtensions) {
  for (const char* name : {"a.vti", "a.VTU", "a.vts", "a.vtp", "a.vtm", "a.pvd", "a.pvti", "a.pvts",
                           "a.pvtu", "a.vtk"})
    EXPECT_TRUE(is_vtk_file(name)) << name;
  for (const char* name : {"a.h5", "a.yaml", "vtu", "a.vtu.bak"})
    EXPECT_FALSE(is_vtk_file(name)) << name;
}

TEST(VtkReader, WaveletImageWithZlib) {
  const MeshData mesh = read_vtk_single(shared_data("paraview/wavelet_zlib.vti"));
  EXPECT_EQ(mesh.kind, MeshKind::kImage);
  EXPECT_EQ(mesh.extent, (std::array<long, 6>{-10, 10, -10, 10, -10, 10}));
  EXPECT_EQ(mesh.number_of_points(), 9261u);
  EXPECT_EQ(mesh.number_of_cells(), 8000u);
  ASSERT_EQ(mesh.point_data.size(), 1u);
  EXPECT_EQ(mesh.point_data[0].name, "RTData");
  EXPECT_EQ(mesh.point_data[0].tuples(), 9261u);
  EXPECT_EQ(mesh.point_data[0].components(), 1u);
  expect_range(mesh.find_point_array("RTData"), 37.3531, 276.8288, 1e-3);
}

TEST(VtkReader, ClippedWaveletUnstructuredBinary) {
  const MeshData mesh = read_vtk_single(shared_data("paraview/wavelet_clip_binary.vtu"));
  EXPECT_EQ(mesh.kind, MeshKind::kUnstructured);
  EXPECT_EQ(mesh.number_of_points(), 4851u);
  EXPECT_EQ(mesh.number_of_cells(), 4000u);
  EXPECT_EQ(mesh.points.extent(1), 3u);
  ASSERT_EQ(mesh.cell_offsets.size(), 4001u);
  EXPECT_EQ(mesh.cell_offsets.front(), 0);
  EXPECT_EQ(static_cast<std::size_t>(mesh.cell_offsets.back()), mesh.connectivity.size());
  expect_range(mesh.find_point_array("RTData"), 37.3531, 276.8288, 1e-3);
}

TEST(VtkReader, SpherePolyData) {
  const MeshData mesh = read_vtk_single(shared_data("paraview/sphere.vtp"));
  EXPECT_EQ(mesh.kind, MeshKind::kPolyData);
  EXPECT_EQ(mesh.number_of_points(), 450u);
  EXPECT_EQ(mesh.number_of_cells(), 896u);
  const NamedArray* normals = mesh.find_point_array("Normals");
  ASSERT_NE(normals, nullptr);
  EXPECT_EQ(normals->components(), 3u);
  EXPECT_EQ(normals->tuples(), 450u);
  // The README's range is ParaView's for the X component (sin(7π/15) on the 16-ring sphere);
  // Z reaches ±1 at the poles.
  expect_range(normals, -0.9945, 0.9945, 1e-3, 0);
  expect_range(normals, -1.0, 1.0, 1e-6, 2);
  EXPECT_TRUE(std::all_of(mesh.cell_types.begin(), mesh.cell_types.end(), [](auto t) {
    return t == 5;
  })) << "a sphere's cells are all VTK_TRIANGLE";
}

TEST(VtkReader, TimeSeriesCollection) {
  const MeshCollection series = read_vtk(shared_data("paraview/timeseries.pvd"));
  EXPECT_EQ(series.kind, MeshCollection::Kind::kTimeSeries);
  ASSERT_EQ(series.entries.size(), 10u);
  EXPECT_DOUBLE_EQ(series.entries.front().time, 0.0);
  EXPECT_DOUBLE_EQ(series.entries.back().time, 1.0);
  EXPECT_NEAR(series.entries[1].time, 1.0 / 9.0, 1e-6);
  EXPECT_EQ(series.entries[3].name, "timeseries/timeseries_0_3.vtu");
  for (const auto& entry : series.entries) {
    const MeshData& mesh = entry.mesh;
    EXPECT_EQ(mesh.kind, MeshKind::kUnstructured);
    EXPECT_EQ(mesh.number_of_points(), 8u);
    EXPECT_EQ(mesh.number_of_cells(), 1u);
    for (const char* name : {"Point Label", "Point X", "Point Y", "Point Z", "Point Value"})
      EXPECT_NE(mesh.find_point_array(name), nullptr) << name << " at t=" << entry.time;
    for (const char* name : {"Cell Label", "Cell X", "Cell Y", "Cell Z", "Cell Value"})
      EXPECT_NE(mesh.find_cell_array(name), nullptr) << name << " at t=" << entry.time;
    expect_range(mesh.find_point_array("Point Label"), 0, 7, 0);
    expect_range(mesh.find_point_array("Point X"), 0, 1, 0);
  }
}

TEST(VtkReader, SingleRejectsASeries) {
  try {
    read_vtk_single(shared_data("paraview/timeseries.pvd"));
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("timeseries.pvd"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("10 datasets"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace surrox::io
