// ctest-labels: unit
// ctest-libraries: surrox_io_vtk
// A failed write leaves nothing under the final name; a good one leaves no temporary file.
#include <gtest/gtest.h>

#include <fstream>

#include "core/error.hpp"
#include "io/vtk_reader.hpp"
#include "io/vtk_series.hpp"
#include "io/vtk_writer.hpp"
#include "support/test_paths.hpp"
#include "vtk_test_meshes.hpp"

namespace surrox::io {
namespace {

namespace fs = std::filesystem;
using namespace surrox::io::testing;
using surrox::testing::scratch_dir;

std::vector<std::string> names_in(const fs::path& folder) {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(folder))
    out.push_back(entry.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(VtkAtomicWrite, SuccessLeavesOnlyTheFinalFile) {
  const fs::path folder = scratch_dir();
  MeshData mesh = image_mesh();
  add_arrays(mesh);
  write_vtk(mesh, folder / "field.vti");
  EXPECT_EQ(names_in(folder), std::vector<std::string>{"field.vti"});
}

TEST(VtkAtomicWrite, RenameFailureLeavesNoTemporary) {
  // The final name is a non-empty folder, so the rename after a complete write fails.
  const fs::path folder = scratch_dir(), target = folder / "taken.vtu";
  fs::create_directories(target / "inside");
  MeshData mesh = unstructured_mesh();
  EXPECT_THROW(write_vtk(mesh, target), Error);
  EXPECT_TRUE(fs::is_directory(target));
  EXPECT_EQ(names_in(folder), std::vector<std::string>{"taken.vtu"});
}

TEST(VtkAtomicWrite, UnwritableFolderIsAnErrorAndNoFile) {
  // A regular file where the folder should be: nobody, not even root, can write below it.
  const fs::path folder = scratch_dir(), blocker = folder / "blocker";
  std::ofstream(blocker) << "x";
  MeshData mesh = unstructured_mesh();
  EXPECT_THROW(write_vtk(mesh, blocker / "grid.vtu"), Error);
  EXPECT_EQ(names_in(folder), std::vector<std::string>{"blocker"});
}

TEST(VtkAtomicWrite, FailedOverwriteKeepsTheOldFile) {
  const fs::path folder = scratch_dir(), path = folder / "grid.vtu";
  MeshData good = unstructured_mesh();
  add_arrays(good);
  write_vtk(good, path);
  MeshData bad = unstructured_mesh();
  bad.cell_offsets.back() = 3;  // inconsistent with the connectivity
  EXPECT_THROW(write_vtk(bad, path), Error);
  EXPECT_EQ(read_vtk_single(path).point_data.size(), 2u) << "the old file must be intact";
  EXPECT_EQ(names_in(folder), std::vector<std::string>{"grid.vtu"});
}

}  // namespace
}  // namespace surrox::io
