// ctest-labels: unit
// ctest-libraries: surrox_io_vtk
// ctest-timeout: 120
// Damaged files must give an InputError that names the file: never a crash, a hang, or a
// silently short dataset. The damage is made here from ParaView's own files.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "core/error.hpp"
#include "io/vtk_reader.hpp"
#include "support/test_paths.hpp"

namespace surrox::io {
namespace {

namespace fs = std::filesystem;
using surrox::testing::scratch_dir;
using surrox::testing::shared_data;

std::string bytes_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

fs::path write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// read_vtk(path) must throw an InputError whose message contains `path` and `expected_text`.
void expect_corrupt_input_error(const fs::path& path, const std::string& named = "") {
  const std::string name = named.empty() ? path.string() : named;
  try {
    const MeshCollection collection = read_vtk(path);
    ADD_FAILURE() << path << " was read without error (" << collection.entries.size()
                  << " entries)";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(name), std::string::npos)
        << "message does not name " << name << ": " << e.what();
    std::cout << "  " << path.filename().string() << ": " << e.what() << "\n";
  } catch (const std::exception& e) {
    ADD_FAILURE() << path << ": expected InputError, got " << typeid(e).name() << ": " << e.what();
  }
}

class TruncatedFile : public ::testing::TestWithParam<std::string> {};

TEST_P(TruncatedFile, IsAnInputError) {
  const fs::path original = shared_data("paraview/" + GetParam());
  const std::string bytes = bytes_of(original);
  ASSERT_GT(bytes.size(), 400u);
  const fs::path folder = scratch_dir();
  if (original.extension() == ".pvd")
    fs::create_directory_symlink(original.parent_path() / "timeseries", folder / "timeseries");
  const std::string stem = original.stem().string(), ext = original.extension().string();
  expect_corrupt_input_error(
      write_bytes(folder / (stem + "_half" + ext), bytes.substr(0, bytes.size() / 2)));
  expect_corrupt_input_error(write_bytes(folder / (stem + "_200" + ext), bytes.substr(0, 200)));
  expect_corrupt_input_error(
      write_bytes(folder / (stem + "_short" + ext), bytes.substr(0, bytes.size() - 40)));
}

INSTANTIATE_TEST_SUITE_P(ParaViewFiles, TruncatedFile,
                         ::testing::Values("wavelet_zlib.vti", "wavelet_clip_binary.vtu",
                                           "sphere.vtp", "timeseries.pvd"),
                         [](const auto& info) {
                           return info.param.substr(0, info.param.find('.'));
                         });

TEST(CorruptVtk, RandomBytesWithAVtuName) {
  std::mt19937 random(42);
  std::string bytes(4096, '\0');
  for (char& c : bytes) c = static_cast<char>(random());
  expect_corrupt_input_error(write_bytes(scratch_dir() / "random.vtu", bytes));
}

TEST(CorruptVtk, XmlOfTheWrongType) {
  // A valid .vtu renamed .vti: VTK's image reader must refuse it, not misread it.
  const fs::path path = scratch_dir() / "grid.vti";
  fs::copy_file(shared_data("paraview/wavelet_clip_binary.vtu"), path);
  expect_corrupt_input_error(path);
}

TEST(CorruptVtk, DamagedCompressedBlock) {
  // Flip bytes inside the zlib data of the wavelet: the decompressor must report it.
  std::string bytes = bytes_of(shared_data("paraview/wavelet_zlib.vti"));
  const auto appended = bytes.find("<AppendedData");
  ASSERT_NE(appended, std::string::npos);
  for (std::size_t i = appended + 200; i < appended + 600 && i < bytes.size(); ++i)
    bytes[i] = static_cast<char>(~bytes[i]);
  expect_corrupt_input_error(write_bytes(scratch_dir() / "flipped.vti", bytes));
}

TEST(CorruptVtk, EmptyFile) {
  expect_corrupt_input_error(write_bytes(scratch_dir() / "empty.vtu", ""));
}

TEST(CorruptVtk, MissingFile) { expect_corrupt_input_error(scratch_dir() / "absent.vti"); }

TEST(CorruptVtk, UnknownExtension) {
  expect_corrupt_input_error(write_bytes(scratch_dir() / "data.xyz", "hello"));
}

TEST(CorruptVtk, LegacyGarbage) {
  expect_corrupt_input_error(write_bytes(scratch_dir() / "junk.vtk", "# not vtk at all\n1 2 3\n"));
}

TEST(CorruptVtk, PvdNamingAMissingFile) {
  const fs::path pvd = scratch_dir() / "broken.pvd";
  write_bytes(
      pvd,
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\">\n  <Collection>\n"
      "    <DataSet timestep=\"0\" part=\"0\" file=\"steps/missing_0.vtu\"/>\n  "
      "</Collection>\n</VTKFile>\n");
  expect_corrupt_input_error(pvd);
  try {
    read_vtk(pvd);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("missing_0.vtu"), std::string::npos) << e.what();
  }
}

TEST(CorruptVtk, PvdThatIsNotACollection) {
  expect_corrupt_input_error(
      write_bytes(scratch_dir() / "wrong.pvd", "<VTKFile type=\"ImageData\"></VTKFile>\n"));
}

}  // namespace
}  // namespace surrox::io
