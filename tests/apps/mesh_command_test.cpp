// ctest-labels: regression
// ctest-libraries: surrox_cli
// `surrox mesh`: the grid of a case's mesh section (the O-grid, or `type: flat_plate`) as
// grid.vts (with metrics) and its quality report in summary.json; bad geometry is exit 2 naming
// the case file.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "io/vtk_reader.hpp"
#include "support/test_paths.hpp"

namespace surrox {
namespace {

// `surrox mesh` on a case holding `yaml` (in dir/mesh.yaml, output dir/out); its grid.vts.
io::MeshData run_mesh(const std::filesystem::path& dir, const std::string& yaml) {
  std::ofstream(dir / "mesh.yaml") << yaml;
  std::string out;
  EXPECT_EQ(surrox::testing::run_surrox(
                "mesh " + (dir / "mesh.yaml").string() + " -o " + (dir / "out").string(), &out),
            0)
      << out;
  io::MeshCollection grid = io::read_vtk(dir / "out" / "grid.vts");
  EXPECT_EQ(grid.entries.size(), 1u);
  return grid.entries.at(0).mesh;
}

TEST(MeshCommand, WritesGridAndQuality) {
  const auto dir = surrox::testing::scratch_dir();
  const io::MeshData mesh = run_mesh(dir,
                                     "mesh:\n  airfoil: {type: naca, digits: '2412'}\n  "
                                     "cells_around: 128\n  cells_normal: 48\n  "
                                     "first_cell_height: 1.0e-3\n");
  EXPECT_EQ(mesh.dimensions()[0], 129);
  EXPECT_EQ(mesh.dimensions()[1], 49);
  ASSERT_NE(mesh.find_cell_array("area"), nullptr);
  ASSERT_NE(mesh.find_cell_array("wall_distance"), nullptr);
  std::ifstream in(dir / "out" / "summary.json");
  const auto summary = nlohmann::json::parse(in);
  const std::string text = summary["results"].dump();
  EXPECT_NE(text.find("orthogonality"), std::string::npos) << text;
  EXPECT_NE(text.find("skewness"), std::string::npos) << text;
}

// TMR's flat plate: 8 + 24 by 12 cells, the leading edge at node 8, x from −0.33 to 2; the wall
// distance of the first row is half the wall spacing over the plate, and ahead of it the
// distance to the leading edge (the symmetry plane is no wall).
TEST(MeshCommand, WritesTheFlatPlate) {
  const auto dir = surrox::testing::scratch_dir();
  const io::MeshData mesh = run_mesh(dir,
                                     "mesh:\n  type: flat_plate\n  cells_upstream: 8\n"
                                     "  cells_plate: 24\n  cells_normal: 12\n"
                                     "  wall_spacing: 1.0e-4\n");
  EXPECT_EQ(mesh.dimensions()[0], 33);
  EXPECT_EQ(mesh.dimensions()[1], 13);
  EXPECT_NEAR(mesh.points(0, 0), -0.33, 1e-12);
  EXPECT_NEAR(mesh.points(8, 0), 0.0, 1e-12);
  EXPECT_NEAR(mesh.points(32, 0), 2.0, 1e-12);
  EXPECT_NEAR(mesh.points(33, 1), 1e-4, 1e-12);
  const io::NamedArray* wall_distance = mesh.find_cell_array("wall_distance");
  ASSERT_NE(wall_distance, nullptr);
  for (long i = 8; i < 32; ++i) EXPECT_NEAR(wall_distance->values(i, 0), 0.5e-4, 1e-9) << i;
  for (long i = 0; i < 8; ++i) {
    const double xc = 0.5 * (mesh.points(i, 0) + mesh.points(i + 1, 0));
    EXPECT_NEAR(wall_distance->values(i, 0), std::hypot(xc, 0.5e-4), 1e-9) << i;
  }
  std::ifstream in(dir / "out" / "summary.json");
  const auto summary = nlohmann::json::parse(in);
  EXPECT_EQ(summary["results"]["grid"]["type"], "flat_plate");
  EXPECT_EQ(summary["results"]["grid"]["cells_i"], 32);
  // A wall spacing too large for its cells to grow from is exit 2 naming the section.
  std::string out;
  std::ofstream(dir / "bad.yaml") << "mesh:\n  type: flat_plate\n  cells_normal: 12\n"
                                     "  wall_spacing: 0.5\n";
  EXPECT_EQ(surrox::testing::run_surrox(
                "mesh " + (dir / "bad.yaml").string() + " -o " + (dir / "bad").string(), &out),
            2)
      << out;
  EXPECT_NE(out.find("mesh"), std::string::npos) << out;
  EXPECT_NE(out.find("bad.yaml"), std::string::npos) << out;
}

TEST(MeshCommand, OpenCoordinatesAreExitTwo) {
  const auto dir = surrox::testing::scratch_dir();
  std::ofstream(dir / "open.dat") << "open\n1.0 0.0\n0.5 0.06\n0.0 0.0\n0.5 -0.06\n0.9 -0.1\n";
  std::ofstream(dir / "mesh.yaml") << "mesh:\n  airfoil: {type: selig, file: open.dat}\n";
  std::string out;
  EXPECT_EQ(surrox::testing::run_surrox(
                "mesh " + (dir / "mesh.yaml").string() + " -o " + (dir / "out").string(), &out),
            2)
      << out;
  EXPECT_NE(out.find("open.dat"), std::string::npos) << out;
}

}  // namespace
}  // namespace surrox
