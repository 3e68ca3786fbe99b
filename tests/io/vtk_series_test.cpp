// ctest-labels: unit
// ctest-libraries: surrox_io_vtk
// PvdSeries: after every add the .pvd is complete and valid, paths are relative to it, and
// read_vtk reads the series back with its times.
#include "io/vtk_series.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "core/error.hpp"
#include "io/vtk_reader.hpp"
#include "io/vtk_writer.hpp"
#include "support/test_paths.hpp"
#include "vtk_test_meshes.hpp"

namespace surrox::io {
namespace {

namespace fs = std::filesystem;
using namespace surrox::io::testing;
using surrox::testing::scratch_dir;

TEST(PvdSeries, ValidAfterEveryAdd) {
  const fs::path folder = scratch_dir();
  PvdSeries series(folder / "run.pvd");
  EXPECT_FALSE(fs::exists(series.path()));
  const double times[] = {0.0, 0.1, 0.3, 1e-7};
  for (int step = 0; step < 4; ++step) {
    MeshData mesh = unstructured_mesh(step);
    add_arrays(mesh, step);
    const fs::path file = folder / "steps" / ("run_" + std::to_string(step) + ".vtu");
    write_vtk(mesh, file);
    series.add(times[step], file);
    EXPECT_EQ(series.size(), static_cast<std::size_t>(step + 1));

    // What a crash now would leave: a readable series with every step so far.
    const MeshCollection back = read_vtk(series.path());
    ASSERT_EQ(back.entries.size(), static_cast<std::size_t>(step + 1));
    EXPECT_EQ(back.entries.back().time, times[step]) << "times must round-trip exactly";
    EXPECT_EQ(back.entries.back().name, "steps/run_" + std::to_string(step) + ".vtu");
    expect_arrays_equal(mesh.point_data, back.entries.back().mesh, true);
  }
  for (const auto& entry : fs::directory_iterator(folder))
    EXPECT_EQ(entry.path().string().find(".tmp-"), std::string::npos) << entry.path();
}

TEST(PvdSeries, IndexKeepsPartsAndRelativePaths) {
  const fs::path folder = scratch_dir();
  PvdSeries series(folder / "out" / "parts.pvd");
  MeshData mesh = polydata_mesh();
  write_vtk(mesh, folder / "a.vtp");
  series.add(2.5, folder / "a.vtp", 1);
  const auto index = read_pvd_index(series.path());
  ASSERT_EQ(index.size(), 1u);
  EXPECT_EQ(index[0].time, 2.5);
  EXPECT_EQ(index[0].part, 1);
  EXPECT_EQ(index[0].file, fs::path("../a.vtp"));
  EXPECT_EQ(read_vtk(series.path()).entries.size(), 1u);
}

TEST(PvdSeries, BadTimestepIsAnInputError) {
  const fs::path pvd = scratch_dir() / "bad.pvd";
  std::ofstream(pvd)
      << "<VTKFile type=\"Collection\"><Collection><DataSet timestep=\"soon\" file=\"x.vtu\"/>"
         "</Collection></VTKFile>";
  EXPECT_THROW(read_pvd_index(pvd), InputError);
}

TEST(PvdSeries, ARestartKeepsTheEntriesBeforeItsTime) {
  const fs::path folder = scratch_dir();
  {
    PvdSeries first(folder / "run.pvd");
    for (int step = 0; step < 3; ++step) {
      MeshData mesh = unstructured_mesh(step);
      const fs::path file = folder / ("run_" + std::to_string(step) + ".vtu");
      write_vtk(mesh, file);
      first.add(0.5 * step, file);
    }
  }
  PvdSeries restarted(folder / "run.pvd");
  restarted.keep_entries_before(1.0);  // keeps t = 0 and 0.5, not 1.0 itself
  EXPECT_EQ(restarted.size(), 2u);
  restarted.add(1.0, folder / "run_2.vtu");
  const auto index = read_pvd_index(folder / "run.pvd");
  ASSERT_EQ(index.size(), 3u);
  EXPECT_EQ(index[1].time, 0.5);
  EXPECT_EQ(index[2].file, fs::path("run_2.vtu"));

  PvdSeries fresh(folder / "none.pvd");
  fresh.keep_entries_before(1.0);  // no earlier file: nothing kept
  EXPECT_EQ(fresh.size(), 0u);
  std::ofstream(folder / "broken.pvd") << "<VTKFile type=\"Collection\"><Collection><DataSet";
  PvdSeries broken(folder / "broken.pvd");
  EXPECT_THROW(broken.keep_entries_before(1.0), InputError);
}

}  // namespace
}  // namespace surrox::io
