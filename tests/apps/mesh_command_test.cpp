// ctest-labels: regression
// ctest-libraries: surrox_cli
// `surrox mesh`: the O-grid of a case's mesh section as grid.vts (with metrics) and its quality
// report in summary.json; bad geometry is exit 2 naming the case file.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "io/vtk_reader.hpp"
#include "support/test_paths.hpp"

namespace surrox {
namespace {

TEST(MeshCommand, WritesGridAndQuality) {
  const auto dir = surrox::testing::scratch_dir();
  std::ofstream(dir / "mesh.yaml")
      << "mesh:\n  airfoil: {type: naca, digits: '2412'}\n  cells_around: 128\n"
         "  cells_normal: 48\n  first_cell_height: 1.0e-3\n";
  std::string out;
  ASSERT_EQ(surrox::testing::run_surrox(
                "mesh " + (dir / "mesh.yaml").string() + " -o " + (dir / "out").string(), &out),
            0)
      << out;
  const io::MeshCollection grid = io::read_vtk(dir / "out" / "grid.vts");
  ASSERT_EQ(grid.entries.size(), 1u);
  const io::MeshData& mesh = grid.entries[0].mesh;
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
