// ctest-labels: unit
// ctest-libraries: surrox_io_vtk
// OpenFOAM case folders read through vtkOpenFOAMReader, on a hand-written two-cell case (no
// OpenFOAM needed): blocks and their names, the values of a chosen time, times matched by value,
// empty patches left out, and bad input (no controlDict, no mesh, decomposed, unknown time)
// named with the folder and the valid choices.
#include "io/vtk_openfoam_case.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "support/openfoam_cases.hpp"
#include "support/test_paths.hpp"

namespace surrox::io {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> entry_names(const MeshCollection& c) {
  std::vector<std::string> names;
  for (const auto& e : c.entries) names.push_back(e.name);
  return names;
}

TEST(OpenFoamCase, BlocksAndValuesOfTheLatestTime) {
  const auto dir = surrox::testing::scratch_dir() / "two";
  surrox::testing::write_two_cell_case(dir);
  EXPECT_TRUE(is_openfoam_case(dir));
  EXPECT_FALSE(is_openfoam_case(dir / "constant"));
  EXPECT_EQ(openfoam_times(dir), (std::vector<std::string>{"0", "0.5"}));
  const MeshCollection c = read_openfoam_case(dir);
  EXPECT_EQ(c.kind, MeshCollection::Kind::kMultiBlock);
  // The patch without faces (`unused`) is left out; names as foamToVTK's .vtm has them.
  EXPECT_EQ(entry_names(c), (std::vector<std::string>{"internalMesh", "boundary/left",
                                                      "boundary/right", "boundary/sides"}));
  const MeshData& cells = c.entries[0].mesh;
  EXPECT_EQ(c.entries[0].time, 0.5);
  EXPECT_EQ(cells.kind, MeshKind::kUnstructured);
  ASSERT_EQ(cells.number_of_cells(), 2u);
  ASSERT_EQ(cells.number_of_points(), 12u);
  EXPECT_EQ(cells.points(7, 0), 1.0);  // point 7 = (1, 0, 1)
  EXPECT_EQ(cells.points(7, 2), 1.0);
  const NamedArray* p = cells.find_cell_array("p");
  const NamedArray* u = cells.find_cell_array("U");
  ASSERT_TRUE(p && u);
  EXPECT_EQ(p->values(0, 0), 1.5);
  EXPECT_EQ(p->values(1, 0), 2.5);
  EXPECT_EQ(u->components(), 3u);
  EXPECT_EQ(u->values(1, 2), 6.0);
  // Point data (vtkOpenFOAMReader's cell-to-point interpolation) for `rows: points`.
  ASSERT_TRUE(cells.find_point_array("p"));
  EXPECT_EQ(cells.find_point_array("p")->tuples(), 12u);
  // Patches: their faces, the boundary values as cell data.
  EXPECT_EQ(c.entries[1].mesh.number_of_cells(), 1u);
  EXPECT_EQ(c.entries[1].mesh.find_cell_array("p")->values(0, 0), 1.0);
  EXPECT_EQ(c.entries[2].mesh.find_cell_array("p")->values(0, 0), 3.0);
  EXPECT_EQ(c.entries[3].mesh.number_of_cells(), 8u);
}

TEST(OpenFoamCase, ANamedTimeIsMatchedByValue) {
  const auto dir = surrox::testing::scratch_dir() / "two";
  surrox::testing::write_two_cell_case(dir);
  const MeshCollection zero = read_openfoam_case(dir, "0");
  EXPECT_EQ(zero.entries[0].time, 0.0);
  EXPECT_EQ(zero.entries[0].mesh.find_cell_array("p")->values(1, 0), 0.0);
  const MeshCollection half = read_openfoam_case(dir, "5e-1");
  EXPECT_EQ(half.entries[0].mesh.find_cell_array("p")->values(1, 0), 2.5);
}

void expect_openfoam_error(const fs::path& dir, const std::string& time,
                           const std::vector<std::string>& parts) {
  try {
    read_openfoam_case(dir, time);
    ADD_FAILURE() << "no InputError for " << dir << " at time " << time;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(dir.string()), std::string::npos) << what;
    for (const auto& part : parts) EXPECT_NE(what.find(part), std::string::npos) << what;
  }
}

TEST(OpenFoamCase, BadInputNamesTheFolderAndTheChoices) {
  const auto scratch = surrox::testing::scratch_dir();
  const auto dir = scratch / "two";
  surrox::testing::write_two_cell_case(dir);
  expect_openfoam_error(dir, "0.25", {"no time directory for time 0.25", "its times: 0, 0.5"});
  expect_openfoam_error(dir, "soon", {"'soon' is neither `latest` nor a number", "0, 0.5"});
  expect_openfoam_error(dir / "constant", "latest", {"has no system/controlDict"});
  expect_openfoam_error(dir / "nowhere", "latest", {"no such folder"});
  // A case without a mesh, and a decomposed one.
  const auto bare = scratch / "bare";
  surrox::testing::write_foam_file(bare / "system" / "controlDict", "dictionary",
                                   surrox::testing::kTwoCellControlDict);
  expect_openfoam_error(bare, "latest", {"no constant/polyMesh", "blockMesh"});
  fs::create_directories(bare / "processor0");
  expect_openfoam_error(bare, "latest", {"decomposed", "reconstructPar"});
  // A mesh but no time directory.
  fs::remove_all(dir / "0");
  fs::remove_all(dir / "0.5");
  expect_openfoam_error(dir, "latest", {"has no time directory"});
  // A mesh file VTK cannot parse: its error, not a crash.
  surrox::testing::write_two_cell_case(dir);
  surrox::testing::write_foam_file(dir / "constant" / "polyMesh" / "owner", "labelList",
                                   "11\n(\n0\n0\nbroken\n");
  expect_openfoam_error(dir, "latest", {"vtkOpenFOAMReader cannot read"});
  // Polyhedra (seven faces each): refused, naming the way out.
  const auto poly = scratch / "poly";
  surrox::testing::write_two_cell_case(poly, /*polyhedra=*/true);
  expect_openfoam_error(poly, "latest", {"has 2 polyhedral cells (of 2)", "-poly-decomp"});
}

}  // namespace
}  // namespace surrox::io
