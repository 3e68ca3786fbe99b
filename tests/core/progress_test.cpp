// ctest-labels: unit
#include "core/progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace surrox {
namespace {

// Runs `body` with a Progress writing into a temporary file (not a terminal) and returns the text.
template <class Body>
std::string captured(Body body) {
  std::FILE* file = std::tmpfile();
  body(file);
  std::fflush(file);
  std::rewind(file);
  std::string text;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, file)) text += buffer;
  std::fclose(file);
  return text;
}

int count_lines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

TEST(Progress, PrintsSparseLinesWhenNotATerminal) {
  const std::string text = captured([](std::FILE* f) {
    Progress progress("solve", 1000, true, "it", f);
    for (std::size_t i = 1; i <= 1000; ++i) progress.update(i, "residual 1e-3");
    progress.finish("done");
  });
  // The first update (so a long run shows life at once), then one line per 10 %; no redraws.
  EXPECT_EQ(count_lines(text), 11) << text;
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_NE(text.find("solve  100/1000   10%"), std::string::npos) << text;
  EXPECT_NE(text.find("it/s"), std::string::npos);
  EXPECT_NE(text.find("ETA"), std::string::npos);
  EXPECT_NE(text.find("residual 1e-3"), std::string::npos);
}

TEST(Progress, DisabledOnOtherRanksPrintsNothing) {
  const std::string text = captured([](std::FILE* f) {
    Progress progress("solve", 10, false, "it", f);
    for (std::size_t i = 1; i <= 10; ++i) progress.update(i);
    progress.finish();
  });
  EXPECT_TRUE(text.empty()) << text;
}

TEST(Progress, WithoutAUnitShowsPercentOnly) {
  Progress progress("run", 1000, false, "");
  const std::string line = progress.line(250, "step 7");
  EXPECT_EQ(line.find("250/1000"), std::string::npos) << line;
  EXPECT_NE(line.find(" 25%"), std::string::npos) << line;
  EXPECT_NE(line.find("step 7"), std::string::npos) << line;
}

TEST(Progress, FormatsDurations) {
  EXPECT_EQ(format_duration(3.21), "3.2s");
  EXPECT_EQ(format_duration(245), "4m05s");
  EXPECT_EQ(format_duration(7380), "2h03m");
  EXPECT_EQ(format_duration(-1), "?");
}

}  // namespace
}  // namespace surrox
