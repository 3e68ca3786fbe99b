// ctest-labels: unit
// ctest-libraries: surrox_io_vtk surrox_io_hdf5
// Replays the fuzzing corpus (fuzz/corpus/<ext>/: seeds and the minimised inputs libFuzzer kept)
// and every input that once crashed a reader (fuzz/regressions/<ext>/) through the same reads
// as the fuzz target (fuzz/reader_fuzz.cpp): each must read or fail with a surrox::Error
// (exit code 2), never crash or throw anything else. Under the debug preset this runs with
// AddressSanitizer and UndefinedBehaviorSanitizer.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/error.hpp"
#include "io/hdf5_dataset.hpp"
#include "io/vtk_reader.hpp"
#include "support/test_paths.hpp"

namespace surrox::io {
namespace {

namespace fs = std::filesystem;

TEST(FuzzCorpus, EveryInputReadsOrFailsCleanly) {
  const fs::path fuzz = surrox::testing::source_dir() / "fuzz";
  std::size_t replayed = 0, failed_cleanly = 0;
  for (const char* folder : {"corpus", "regressions"}) {
    if (!fs::is_directory(fuzz / folder)) continue;
    for (const auto& kind : fs::directory_iterator(fuzz / folder)) {
      const std::string ext = kind.path().filename().string();
      if (!kind.is_directory() || ext.find('-') != std::string::npos) continue;
      // Inputs of kinds that name other files (.vtm, .pvd) lie beside those files.
      const fs::path work = surrox::testing::scratch_dir() / (std::string(folder) + "-" + ext);
      fs::create_directories(work);
      if (fs::is_directory(fuzz / "corpus" / (ext + "-files")))
        fs::copy(fuzz / "corpus" / (ext + "-files"), work, fs::copy_options::recursive);
      for (const auto& input : fs::directory_iterator(kind.path())) {
        const fs::path path = work / ("input." + ext);
        fs::copy_file(input.path(), path, fs::copy_options::overwrite_existing);
        SCOPED_TRACE(input.path().string());
        ++replayed;
        try {
          if (ext == "h5")
            read_hdf5_dataset(path);
          else
            read_vtk(path);
        } catch (const Error&) {
          ++failed_cleanly;
        }
      }
    }
  }
  EXPECT_GT(replayed, 10u);
  std::cout << replayed << " inputs replayed, " << failed_cleanly
            << " refused with a clear error\n";
}

}  // namespace
}  // namespace surrox::io
