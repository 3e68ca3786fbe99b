#pragma once
// A tiny Rayleigh–Bénard run written by `surrox run` (64 × 16 cells at Ra 1e6 to t = 2, 9
// frames every 0.25) for the super-resolution tests; `extra` adds --set options. Made once per
// test process and option string, in a folder of its own (scratch_dir() is emptied per call).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>

#include "support/test_paths.hpp"

namespace surrox::testing {

inline std::filesystem::path tiny_rb_run(const std::string& extra = "") {
  static std::map<std::string, std::filesystem::path> made;
  if (made.count(extra)) return made[extra];
  const std::filesystem::path out = std::filesystem::path(SURROX_BINARY_DIR) / "test-scratch" /
                                    ("sr_tiny_runs_" + std::to_string(getpid())) /
                                    ("rb" + std::to_string(made.size()));
  std::filesystem::remove_all(out);
  std::string log;
  const int code = run_surrox(
      "run " + (source_dir() / "cases/rayleigh_benard/ra1e6_dataset.yaml").string() + " -o " +
          out.string() +
          " --log-level warn --threads 1 --set solver.cells=[64,16] --set solver.end_time=2"
          " --set solver.average_from=0 --set solver.amplitude=0.05 " +
          extra,
      &log);
  EXPECT_EQ(code, 0) << log;
  return made[extra] = out / "fields.h5";
}

}  // namespace surrox::testing
