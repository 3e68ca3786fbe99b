#pragma once
// The restart matrix of issue 39, through `surrox run` in this process (on the test's ranks):
// a case run straight, and the same case stopped by --max-steps at each given step and
// restarted into the same folder, must end with the same summary figures (steps, time,
// diagnostics, field statistics) and the same files bit for bit: every record (*.csv, *.pvd),
// every field output under fields/, final.data, dump.lammpstrj, the DeePMD system, and the
// HDF5 dataset's times and fields step by step (its bytes hold a creation time). Left out:
// summary.json (timings) and checkpoint.h5.
// A test that uses it links surrox_families (ctest-libraries).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/in_process_surrox.hpp"
#include "support/output_comparison.hpp"
#include "support/test_paths.hpp"

namespace surrox::testing {

inline nlohmann::json summary_results(const std::filesystem::path& dir) {
  std::ifstream in(dir / "summary.json");
  return nlohmann::json::parse(in)["results"];
}

// `run`: "run CASE --set ..." as separate arguments, without -o. Every stop must lie inside
// the run. Returns the straight run's results.
inline nlohmann::json expect_restarts_bitwise(const std::vector<std::string>& run,
                                              const std::filesystem::path& dir,
                                              const std::vector<long>& stops) {
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = run;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  // On several ranks a failing command ends the job with its message on stderr: not captured.
  std::string out;
  std::string* capture = runtime().size() > 1 ? nullptr : &out;
  const auto straight = dir / "straight";
  EXPECT_EQ(run_surrox_in_process(with({"-o", straight.string()}), capture), 0) << out;
  const nlohmann::json full = summary_results(straight);
  for (long stop : stops) {
    EXPECT_LT(stop, full["steps"].get<long>()) << "a stop after the run's end tests nothing";
    const auto split = dir / ("stopped_at_" + std::to_string(stop));
    EXPECT_EQ(run_surrox_in_process(
                  with({"-o", split.string(), "--max-steps", std::to_string(stop)}), capture),
              0)
        << out;
    EXPECT_EQ(
        run_surrox_in_process(
            with({"-o", split.string(), "--restart", (split / "checkpoint.h5").string()}), capture),
        0)
        << out;
    const nlohmann::json resumed = summary_results(split);
    EXPECT_EQ(resumed["steps"], full["steps"]) << "stop " << stop;
    EXPECT_EQ(resumed["time"], full["time"]) << "stop " << stop;
    EXPECT_EQ(resumed["diagnostics"], full["diagnostics"]) << "stop " << stop;
    EXPECT_EQ(resumed["fields"], full["fields"]) << "stop " << stop;
    if (runtime().root()) {
      int compared = 0;
      const auto differ = differing_outputs(straight, split, &compared);
      EXPECT_TRUE(differ.empty()) << "restarted at step " << stop << ": "
                                  << ::testing::PrintToString(differ) << " differ";
      EXPECT_GT(compared, 0);
    }
  }
  return full;
}

}  // namespace surrox::testing
