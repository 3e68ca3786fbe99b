// ctest-labels: unit
#include "core/error.hpp"

#include <gtest/gtest.h>

#include "core/suggest.hpp"

namespace surrox {
namespace {

TEST(Error, FormatsFileLineColumnAndKeyPath) {
  EXPECT_EQ(format_error("bad", {"case.yaml", 3, 7, "solver.ra"}), "case.yaml:3:7: solver.ra: bad");
  EXPECT_EQ(format_error("bad", {"case.yaml", 3, 0, ""}), "case.yaml:3: bad");
  EXPECT_EQ(format_error("bad", {"", 0, 0, "a.b"}), "a.b: bad");
  EXPECT_EQ(format_error("bad", {}), "bad");
}

TEST(Error, ExitCodesSeparateBadInputFromFailures) {
  EXPECT_EQ(InputError("x").exit_code(), ExitCode::kBadInput);
  EXPECT_EQ(Error("x").exit_code(), ExitCode::kFailure);
  EXPECT_EQ(static_cast<int>(ExitCode::kBadInput), 2);
  const InputError e("too hot", {"f.yaml", 2, 0, "t"});
  EXPECT_EQ(e.detail(), "too hot");
  EXPECT_STREQ(e.what(), "f.yaml:2: t: too hot");
}

TEST(Suggest, FindsTheClosestPlausibleName) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(closest_match("diffusivty", {"diffusivity", "end_time"}), "diffusivity");
  EXPECT_EQ(closest_match("ENDTIME", {"diffusivity", "end_time"}), "end_time");
  EXPECT_EQ(closest_match("zzzzzz", {"diffusivity", "end_time"}), std::nullopt);
  EXPECT_EQ(did_you_mean("zzzz", {"abc"}), "");
  EXPECT_EQ(join({"a", "b"}), "a, b");
}

}  // namespace
}  // namespace surrox
