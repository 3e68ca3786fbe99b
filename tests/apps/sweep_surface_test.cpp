// ctest-labels: unit
// ctest-libraries: surrox_cli
// A finished airfoil case's surface.csv (Cp and Cf per wall face) as the sweep dataset's cell
// arrays wall_cp and wall_cf (apps/sweep_surface.hpp): face i's value on every cell of grid
// column i; cases without a surface file are left alone; a file that does not fit is an Error.
#include "apps/sweep_surface.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "core/error.hpp"

namespace surrox::apps {
namespace {

io::MeshData grid_of(long ni, long nj) {
  io::MeshData mesh;
  mesh.kind = io::MeshKind::kStructured;
  mesh.extent = {0, ni, 0, nj, 0, 0};
  return mesh;
}

std::filesystem::path write_surface(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("surrox_sweep_surface_" + std::to_string(::getpid())) / name;
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "surface.csv") << text;
  return dir;
}

TEST(SweepSurfaceArrays, ColumnsCarryTheirWallFace) {
  const auto dir = write_surface("good",
                                 "i,x_over_c,y_over_c,cp,cf,upper\n"
                                 "0,1,0,0.5,0.001,0\n1,0.5,-0.05,-0.25,0.002,0\n"
                                 "2,0,0,1.0,0.0,1\n3,0.5,0.05,-1.5,-0.003,1\n");
  io::MeshData mesh = grid_of(4, 3);
  add_surface_arrays(dir, mesh);
  const io::NamedArray *cp = mesh.find_cell_array("wall_cp"), *cf = mesh.find_cell_array("wall_cf");
  ASSERT_NE(cp, nullptr);
  ASSERT_NE(cf, nullptr);
  ASSERT_EQ(cp->tuples(), 12u);
  const double cps[4] = {0.5, -0.25, 1.0, -1.5}, cfs[4] = {0.001, 0.002, 0.0, -0.003};
  for (long j = 0; j < 3; ++j)
    for (long i = 0; i < 4; ++i) {
      EXPECT_EQ(cp->values(i + 4 * j, 0), cps[i]);
      EXPECT_EQ(cf->values(i + 4 * j, 0), cfs[i]);
    }
}

TEST(SweepSurfaceArrays, NoFileNoArraysAndMisfitsAreErrors) {
  io::MeshData mesh = grid_of(4, 3);
  add_surface_arrays(std::filesystem::temp_directory_path() / "surrox_no_such_case_dir", mesh);
  EXPECT_TRUE(mesh.cell_data.empty());
  const auto short_file =
      write_surface("short", "i,x_over_c,y_over_c,cp,cf,upper\n0,1,0,0.5,0.001,0\n");
  EXPECT_THROW(add_surface_arrays(short_file, mesh), Error);
  const auto other = write_surface("other", "x,y\n1,2\n");
  EXPECT_THROW(add_surface_arrays(other, mesh), Error);
  const auto text = write_surface("text", "i,x_over_c,y_over_c,cp,cf,upper\n0,1,0,abc,0.001,0\n");
  EXPECT_THROW(add_surface_arrays(text, mesh), Error);
  std::filesystem::remove_all(short_file.parent_path());
}

}  // namespace
}  // namespace surrox::apps
