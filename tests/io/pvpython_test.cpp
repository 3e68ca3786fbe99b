// ctest-labels: regression
// ctest-libraries: surrox_io_vtk
// ctest-timeout: 300
// Cross-check with ParaView itself: files written by surrox are opened with pvpython
// (tests/io/check_with_pvpython.py) and what ParaView reports must match what was written.
// Skipped, saying so, only when ParaView is not installed (scripts/bootstrap.sh installs it).
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "io/vtk_series.hpp"
#include "io/vtk_writer.hpp"
#include "support/test_paths.hpp"
#include "vtk_test_meshes.hpp"

namespace surrox::io {
namespace {

namespace fs = std::filesystem;
using namespace surrox::io::testing;

std::pair<double, double> range0(const NamedArray& array) {
  double low = array.values(0, 0), high = low;
  for (std::size_t t = 0; t < array.tuples(); ++t) {
    low = std::min(low, array.values(t, 0));
    high = std::max(high, array.values(t, 0));
  }
  return {low, high};
}

void expect_arrays(const nlohmann::json& seen, const std::vector<NamedArray>& written,
                   const std::string& where) {
  for (const auto& array : written) {
    ASSERT_TRUE(seen.contains(array.name))
        << where << ": ParaView does not see array '" << array.name << "'";
    const auto& a = seen[array.name];
    EXPECT_EQ(a["components"].get<std::size_t>(), array.components()) << where << " " << array.name;
    const auto [low, high] = range0(array);
    EXPECT_NEAR(a["range"][0].get<double>(), low, 1e-9 * (1 + std::abs(low)))
        << where << " " << array.name;
    EXPECT_NEAR(a["range"][1].get<double>(), high, 1e-9 * (1 + std::abs(high)))
        << where << " " << array.name;
  }
}

TEST(ParaViewCrossCheck, OpensEverythingSurroxWrites) {
  std::string why;
  const std::string pvpython = surrox::testing::paraview_python(&why);
  if (pvpython.empty()) GTEST_SKIP() << why << "; ParaView cross-check NOT run";

  const fs::path folder = surrox::testing::scratch_dir();
  std::vector<std::pair<fs::path, MeshData>> written;
  auto keep = [&](MeshData mesh, const std::string& name) {
    add_arrays(mesh);
    write_vtk(mesh, folder / name);
    written.emplace_back(folder / name, std::move(mesh));
  };
  keep(image_mesh(), "image.vti");
  keep(structured_mesh(), "structured.vts");
  keep(unstructured_mesh(), "grid.vtu");
  keep(polydata_mesh(), "surface.vtp");

  PvdSeries series(folder / "series.pvd");
  for (int step = 0; step < 3; ++step) {
    MeshData mesh = unstructured_mesh(step);
    add_arrays(mesh, step);
    const fs::path file = folder / "series" / ("step_" + std::to_string(step) + ".vtu");
    write_vtk(mesh, file);
    series.add(0.5 * step, file);
    if (step == 2)
      written.emplace_back(series.path(), std::move(mesh));  // ParaView shows the last step
  }
  MeshData piece = image_mesh();
  add_arrays(piece);
  write_vtk_partitioned(piece, folder / "partitioned.pvti", MPI_COMM_WORLD);
  written.emplace_back(folder / "partitioned.pvti", piece);

  std::string command =
      pvpython + " " + (surrox::testing::source_dir() / "tests/io/check_with_pvpython.py").string();
  for (const auto& [path, mesh] : written) command += " " + path.string();
  std::string output;
  const int status = surrox::testing::run_command(command, &output);
  ASSERT_EQ(status, 0) << command << "\n" << output;
  const auto marker = output.find("SURROX_JSON ");
  ASSERT_NE(marker, std::string::npos) << output;
  const auto seen =
      nlohmann::json::parse(output.substr(marker + 12, output.find('\n', marker) - marker - 12));

  for (const auto& [path, mesh] : written) {
    const std::string where = path.filename().string();
    ASSERT_TRUE(seen.contains(path.string())) << where;
    const auto& file = seen[path.string()];
    ASSERT_FALSE(file.contains("error")) << where << ": " << file["error"];
    EXPECT_EQ(file["points"].get<std::size_t>(), mesh.number_of_points()) << where;
    EXPECT_EQ(file["cells"].get<std::size_t>(), mesh.number_of_cells()) << where;
    expect_arrays(file["point_arrays"], mesh.point_data, where);
    expect_arrays(file["cell_arrays"], mesh.cell_data, where);
  }
  EXPECT_EQ(seen[series.path().string()]["times"], nlohmann::json::parse("[0.0, 0.5, 1.0]"));
}

}  // namespace
}  // namespace surrox::io
