// ctest-labels: unit
// ctest-libraries: surrox_io_vtk VTK::IOLegacy VTK::IOXML VTK::CommonDataModel
// write_vtk then read_vtk gives back the same mesh for every kind; legacy .vtk and .vtm
// files written by VTK's own writers read back block by block.
#include <gtest/gtest.h>
#include <vtkDataSet.h>
#include <vtkDataSetWriter.h>
#include <vtkInformation.h>
#include <vtkMultiBlockDataSet.h>
#include <vtkNew.h>
#include <vtkSmartPointer.h>
#include <vtkXMLMultiBlockDataWriter.h>

#include "core/error.hpp"
#include "io/vtk_convert.hpp"
#include "io/vtk_reader.hpp"
#include "io/vtk_writer.hpp"
#include "support/test_paths.hpp"
#include "vtk_test_meshes.hpp"

namespace surrox::io {
namespace {

using namespace surrox::io::testing;
using surrox::testing::scratch_dir;

void expect_same_mesh(const MeshData& expected, const MeshData& actual) {
  ASSERT_EQ(actual.kind, expected.kind);
  EXPECT_EQ(actual.number_of_points(), expected.number_of_points());
  EXPECT_EQ(actual.number_of_cells(), expected.number_of_cells());
  if (expected.kind == MeshKind::kImage) {
    EXPECT_EQ(actual.extent, expected.extent);
    EXPECT_EQ(actual.origin, expected.origin);
    EXPECT_EQ(actual.spacing, expected.spacing);
  } else {
    expect_points_equal(expected.points, actual.points);
  }
  if (expected.kind == MeshKind::kStructured) {
    EXPECT_EQ(actual.extent, expected.extent);
  }
  if (expected.kind == MeshKind::kUnstructured) {
    EXPECT_EQ(actual.cell_types, expected.cell_types);
    EXPECT_EQ(actual.cell_offsets, expected.cell_offsets);
    EXPECT_EQ(actual.connectivity, expected.connectivity);
  }
  EXPECT_EQ(actual.point_data.size(), expected.point_data.size());
  EXPECT_EQ(actual.cell_data.size(), expected.cell_data.size());
  expect_arrays_equal(expected.point_data, actual, true);
  if (expected.kind != MeshKind::kPolyData) {  // polydata cells are regrouped; see below
    expect_arrays_equal(expected.cell_data, actual, false);
  }
}

struct Case {
  const char* name;
  MeshData (*make)();
  const char* extension;
};

class RoundTrip : public ::testing::TestWithParam<std::tuple<Case, bool>> {};

TEST_P(RoundTrip, SameMeshBack) {
  const auto& [c, compress] = GetParam();
  MeshData mesh = c.make();
  add_arrays(mesh);
  const auto folder = scratch_dir();
  for (bool binary : {true, false}) {
    const auto path =
        folder / (std::string(c.name) + (binary ? "_binary" : "_ascii") + c.extension);
    write_vtk(mesh, path, {compress, binary});
    expect_same_mesh(mesh, read_vtk_single(path));
  }
}

const Case kCases[] = {
    {"image", [] { return image_mesh(); }, ".vti"},
    {"structured", structured_mesh, ".vts"},
    {"unstructured", [] { return unstructured_mesh(); }, ".vtu"},
    {"polydata", polydata_mesh, ".vtp"},
};

INSTANTIATE_TEST_SUITE_P(EveryKind, RoundTrip,
                         ::testing::Combine(::testing::ValuesIn(kCases), ::testing::Bool()),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param).name) +
                                  (std::get<1>(info.param) ? "_zlib" : "_raw");
                         });

// Polydata cells come back grouped verts, lines, polys, strips; each cell keeps its data.
TEST(VtkWriter, PolyDataCellsRegroupedWithTheirData) {
  MeshData mesh = polydata_mesh();
  add_arrays(mesh);
  const auto path = scratch_dir() / "cells.vtp";
  write_vtk(mesh, path);
  const MeshData back = read_vtk_single(path);
  ASSERT_EQ(back.number_of_cells(), mesh.number_of_cells());
  const std::vector<std::uint8_t> grouped{
      1, 3, 4, 5, 9, 7, 6};  // vertex, line, polyline, tri, quad, polygon, strip
  EXPECT_EQ(back.cell_types, grouped);
  const NamedArray* stress = back.find_cell_array("stress2");
  ASSERT_NE(stress, nullptr);
  for (std::size_t c = 0; c < back.number_of_cells(); ++c) {
    // find the original cell with the same type and points
    std::size_t original = mesh.number_of_cells();
    for (std::size_t o = 0; o < mesh.number_of_cells(); ++o)
      if (cell_of(mesh, o) == cell_of(back, c)) original = o;
    ASSERT_LT(original, mesh.number_of_cells()) << "cell " << c << " not in the original";
    EXPECT_EQ((*stress).values(c, 1), mesh.find_cell_array("stress2")->values(original, 1));
  }
}

TEST(VtkWriter, ExtensionMustMatchKind) {
  const auto folder = scratch_dir();
  MeshData mesh = unstructured_mesh();
  EXPECT_THROW(write_vtk(mesh, folder / "grid.vti"), Error);
  EXPECT_TRUE(std::filesystem::is_empty(folder));
}

TEST(VtkWriter, InconsistentMeshIsRefused) {
  const auto folder = scratch_dir();
  MeshData mesh = unstructured_mesh();
  mesh.connectivity.back() = 99;  // no such point
  EXPECT_THROW(write_vtk(mesh, folder / "bad.vtu"), Error);
  mesh = unstructured_mesh();
  mesh.point_data.push_back({"short", filled("short", 5, 1, 0)});
  EXPECT_THROW(write_vtk(mesh, folder / "bad.vtu"), Error);
  EXPECT_TRUE(std::filesystem::is_empty(folder));
}

TEST(VtkRoundtripRead, LegacyFileFromVtkWriter) {
  MeshData mesh = unstructured_mesh();
  add_arrays(mesh);
  const auto path = scratch_dir() / "legacy.vtk";
  vtkNew<vtkDataSetWriter> writer;
  writer->SetInputData(detail::mesh_to_vtk(mesh));
  writer->SetFileName(path.c_str());
  writer->SetFileTypeToBinary();
  ASSERT_EQ(writer->Write(), 1);
  expect_same_mesh(mesh, read_vtk_single(path));
}

TEST(VtkRoundtripRead, MultiBlockFromVtkWriter) {
  MeshData grid = unstructured_mesh(), image = image_mesh(), poly = polydata_mesh();
  add_arrays(grid, 1.0);
  add_arrays(image, 2.0);
  add_arrays(poly, 3.0);
  vtkNew<vtkMultiBlockDataSet> blocks;
  blocks->SetNumberOfBlocks(3);
  blocks->SetBlock(0, detail::mesh_to_vtk(grid));
  blocks->SetBlock(1, detail::mesh_to_vtk(image));
  blocks->SetBlock(2, detail::mesh_to_vtk(poly));
  blocks->GetMetaData(0u)->Set(vtkCompositeDataSet::NAME(), "fluid");
  blocks->GetMetaData(1u)->Set(vtkCompositeDataSet::NAME(), "field");
  blocks->GetMetaData(2u)->Set(vtkCompositeDataSet::NAME(), "wall");
  const auto path = scratch_dir() / "blocks.vtm";
  vtkNew<vtkXMLMultiBlockDataWriter> writer;
  writer->SetInputData(blocks);
  writer->SetFileName(path.c_str());
  ASSERT_EQ(writer->Write(), 1);

  const MeshCollection back = read_vtk(path);
  EXPECT_EQ(back.kind, MeshCollection::Kind::kMultiBlock);
  ASSERT_EQ(back.entries.size(), 3u);
  EXPECT_EQ(back.entries[0].name, "fluid");
  EXPECT_EQ(back.entries[1].name, "field");
  EXPECT_EQ(back.entries[2].name, "wall");
  expect_same_mesh(grid, back.entries[0].mesh);
  expect_same_mesh(image, back.entries[1].mesh);
  expect_same_mesh(poly, back.entries[2].mesh);
  EXPECT_THROW(read_vtk_single(path), InputError);
}

}  // namespace
}  // namespace surrox::io
