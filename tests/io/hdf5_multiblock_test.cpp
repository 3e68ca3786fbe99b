// ctest-labels: unit
// ctest-libraries: surrox_io_vtk surrox_io_hdf5 VTK::IOXML VTK::CommonDataModel
// A heterogeneous, nested .vtm (the shape of ParaView's OpenFOAM reader output: internalMesh
// plus boundary patches, point and cell arrays of one name) written by VTK's own writer goes
// to a surrox-multiblock HDF5 file with every block in its own group and comes back equal,
// value for value; bad block names are refused without leaving a file.
#include "io/hdf5_multiblock.hpp"

#include <gtest/gtest.h>
#include <vtkDataSet.h>
#include <vtkInformation.h>
#include <vtkMultiBlockDataSet.h>
#include <vtkNew.h>
#include <vtkSmartPointer.h>
#include <vtkXMLMultiBlockDataWriter.h>

#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "io/hdf5_dataset.hpp"
#include "io/vtk_convert.hpp"
#include "io/vtk_reader.hpp"
#include "support/test_paths.hpp"
#include "vtk_test_meshes.hpp"

namespace surrox::io {
namespace {

using namespace surrox::io::testing;
using surrox::testing::scratch_dir;

struct FoamLike {
  MeshData internal, inlet, outlet, probe;
};

// Writes the nested multiblock with vtkXMLMultiBlockDataWriter; blocks 2 of "boundary" is
// unnamed and two top-level blocks share the name "probe".
FoamLike write_foam_like(const std::filesystem::path& path) {
  FoamLike f{unstructured_mesh(), polydata_mesh(), unstructured_mesh(1.0), image_mesh()};
  add_arrays(f.internal, 1.0);
  // Same name on points and cells, as the OpenFOAM reader gives p and U.
  f.internal.cell_data.push_back({"pressure", filled("p", f.internal.number_of_cells(), 1, 9.0)});
  add_arrays(f.inlet, 2.0);
  add_arrays(f.outlet, 3.0);
  add_arrays(f.probe, 4.0);
  vtkNew<vtkMultiBlockDataSet> boundary;
  boundary->SetNumberOfBlocks(2);
  boundary->SetBlock(0, detail::mesh_to_vtk(f.inlet));
  boundary->GetMetaData(0u)->Set(vtkCompositeDataSet::NAME(), "inlet");
  boundary->SetBlock(1, detail::mesh_to_vtk(f.outlet));  // no name
  vtkNew<vtkMultiBlockDataSet> root;
  root->SetNumberOfBlocks(4);
  root->SetBlock(0, detail::mesh_to_vtk(f.internal));
  root->GetMetaData(0u)->Set(vtkCompositeDataSet::NAME(), "internalMesh");
  root->SetBlock(1, boundary);
  root->GetMetaData(1u)->Set(vtkCompositeDataSet::NAME(), "boundary");
  root->SetBlock(2, detail::mesh_to_vtk(f.probe));
  root->GetMetaData(2u)->Set(vtkCompositeDataSet::NAME(), "probe");
  root->SetBlock(3, detail::mesh_to_vtk(f.probe));
  root->GetMetaData(3u)->Set(vtkCompositeDataSet::NAME(), "probe");
  vtkNew<vtkXMLMultiBlockDataWriter> writer;
  writer->SetInputData(root);
  writer->SetFileName(path.c_str());
  EXPECT_EQ(writer->Write(), 1);
  return f;
}

void expect_block(const MeshData& expected, const MeshData& actual, bool renamed_cell_pressure) {
  ASSERT_EQ(actual.kind, expected.kind);
  ASSERT_EQ(actual.number_of_points(), expected.number_of_points());
  ASSERT_EQ(actual.number_of_cells(), expected.number_of_cells());
  if (expected.kind != MeshKind::kImage) expect_points_equal(expected.points, actual.points);
  EXPECT_EQ(actual.cell_types, expected.cell_types);
  EXPECT_EQ(actual.cell_offsets, expected.cell_offsets);
  EXPECT_EQ(actual.connectivity, expected.connectivity);
  EXPECT_EQ(actual.extent, expected.extent);
  expect_arrays_equal(expected.point_data, actual, true);
  std::vector<NamedArray> cells = expected.cell_data;
  if (renamed_cell_pressure) cells.back().name = "pressure_cell";
  expect_arrays_equal(cells, actual, false);
}

TEST(Hdf5Multiblock, NestedHeterogeneousVtmKeepsEveryBlock) {
  const auto dir = scratch_dir();
  const FoamLike f = write_foam_like(dir / "case.vtm");
  const MeshCollection blocks = read_vtk(dir / "case.vtm");
  ASSERT_EQ(blocks.kind, MeshCollection::Kind::kMultiBlock);
  std::vector<std::string> names;
  for (const auto& entry : blocks.entries) names.push_back(entry.name);
  // Nested names are paths; VTK's flat index names the unnamed block; the duplicate is numbered.
  const std::vector<std::string> expected_names{"internalMesh", "boundary/inlet", "boundary/block4",
                                                "probe", "probe_2"};
  ASSERT_EQ(names, expected_names);

  write_hdf5_dataset(blocks, dir / "case.h5");
  EXPECT_EQ(hdf5_format(dir / "case.h5"), "surrox-multiblock");
  EXPECT_EQ(hdf5_multiblock_blocks(dir / "case.h5"), expected_names);
  const MeshCollection back = read_hdf5_dataset(dir / "case.h5");
  ASSERT_EQ(back.kind, MeshCollection::Kind::kMultiBlock);
  ASSERT_EQ(back.entries.size(), 5u);
  for (std::size_t b = 0; b < 5; ++b) EXPECT_EQ(back.entries[b].name, expected_names[b]);
  // Against what VTK's reader gave (polydata cells come back grouped by kind) ...
  for (std::size_t b = 0; b < 5; ++b)
    expect_block(blocks.entries[b].mesh, back.entries[b].mesh, b == 0);
  // ... and, where VTK keeps the order, against what was written.
  expect_block(f.internal, back.entries[0].mesh, true);
  expect_block(f.outlet, back.entries[2].mesh, false);
  expect_block(f.probe, back.entries[4].mesh, false);

  // One block read as a dataset of its own.
  Hdf5DatasetReader inlet(dir / "case.h5", "/blocks/boundary/inlet");
  EXPECT_EQ(inlet.mesh().kind, MeshKind::kPolyData);
  EXPECT_EQ(inlet.steps(), 1u);
  // The whole file is not a single dataset.
  EXPECT_THROW(Hdf5DatasetReader{dir / "case.h5"}, InputError);

  // The sidecar: a spatial collection with one grid per block, heavy data in the block groups.
  std::ifstream in(dir / "case.xdmf");
  ASSERT_TRUE(in) << "no sidecar";
  std::stringstream text;
  text << in.rdbuf();
  const std::string xml = text.str();
  EXPECT_NE(xml.find("CollectionType=\"Spatial\""), std::string::npos) << xml;
  for (const auto& name : expected_names)
    EXPECT_NE(xml.find("<Grid Name=\"" + name + "\""), std::string::npos) << name;
  EXPECT_NE(xml.find("case.h5:/blocks/internalMesh/fields/pressure_cell"), std::string::npos);
  EXPECT_NE(xml.find("case.h5:/blocks/boundary/block4/mesh/xdmf_topology"), std::string::npos);
  // Nothing else is left in the folder (no scratch block files, no temporary file).
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    files += entry.path().filename().string().rfind("case.", 0) == 0 ? 0 : 1;
  EXPECT_EQ(files, 1u);  // the .vtm's own folder "case/"
}

void expect_refused(const MeshCollection& blocks, const std::string& reason) {
  const auto path = scratch_dir() / "bad.h5";
  try {
    write_hdf5_multiblock(blocks, path);
    ADD_FAILURE() << "no InputError for " << reason;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  for (const auto& entry : std::filesystem::directory_iterator(scratch_dir()))
    ADD_FAILURE() << "left behind: " << entry.path();
}

TEST(Hdf5Multiblock, BadBlockNamesAreRefused) {
  MeshCollection blocks;
  blocks.kind = MeshCollection::Kind::kMultiBlock;
  MeshData mesh = unstructured_mesh();
  add_arrays(mesh);
  blocks.entries = {{0.0, "a", mesh}, {0.0, "a", mesh}};
  expect_refused(blocks, "two blocks are named 'a'");
  blocks.entries = {{0.0, "a", mesh}, {0.0, "a/b", mesh}};
  expect_refused(blocks, "also the parent");
  blocks.entries = {{0.0, "a//b", mesh}};
  expect_refused(blocks, "not a valid group path");
  blocks.entries = {{0.0, "..", mesh}};
  expect_refused(blocks, "not a valid group path");
  MeshData empty;
  blocks.entries = {{0.0, "a", mesh}, {0.0, "b", empty}};
  expect_refused(blocks, "block 'b'");
}

}  // namespace
}  // namespace surrox::io
