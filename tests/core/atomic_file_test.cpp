// ctest-labels: unit
#include "core/atomic_file.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "support/test_paths.hpp"

namespace surrox {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(AtomicFile, NothingAppearsUnderTheFinalNameUntilCommit) {
  const auto dir = surrox::testing::scratch_dir();
  const auto path = dir / "nested" / "result.txt";
  {
    AtomicFile file(path);
    std::ofstream(file.temporary()) << "half";
    EXPECT_FALSE(std::filesystem::exists(path));
    EXPECT_TRUE(std::filesystem::exists(file.temporary()));
  }  // abandoned: the temporary goes, nothing is left
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::is_empty(dir / "nested"));
}

TEST(AtomicFile, AFailedRewriteKeepsThePreviousGoodFile) {
  const auto dir = surrox::testing::scratch_dir();
  const auto path = dir / "summary.json";
  write_text_atomically(path, "good");
  {
    AtomicFile file(path);
    std::ofstream(file.temporary()) << "brok";
    // no commit: e.g. an exception while writing
  }
  EXPECT_EQ(read_text(path), "good");
  write_text_atomically(path, "better");
  EXPECT_EQ(read_text(path), "better");
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(entry.path().filename(), "summary.json");
}

TEST(AtomicFile, UnwritableTargetsAreErrors) {
  EXPECT_THROW(write_text_atomically("/proc/surrox-cannot-write-here", "x"), std::exception);
}

}  // namespace
}  // namespace surrox
