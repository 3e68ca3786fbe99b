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

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/hdf5_dataset.hpp"
#include "support/in_process_surrox.hpp"
#include "support/test_paths.hpp"

namespace surrox::testing {

inline std::string bytes_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline nlohmann::json summary_results(const std::filesystem::path& dir) {
  std::ifstream in(dir / "summary.json");
  return nlohmann::json::parse(in)["results"];
}

// Two HDF5 datasets with the same times, fields and values bit for bit.
inline bool same_dataset(const std::filesystem::path& a, const std::filesystem::path& b) {
  if (!std::filesystem::exists(b)) return false;
  const io::Hdf5DatasetReader x(a), y(b);
  if (x.times() != y.times() || x.fields().size() != y.fields().size()) return false;
  for (const auto& field : x.fields())
    for (std::size_t step = 0; step < x.steps(); ++step) {
      const io::HostArray u = x.read(field.name, step), v = y.read(field.name, step);
      if (u.size() != v.size() || !std::equal(u.data(), u.data() + u.size(), v.data()))
        return false;
    }
  return true;
}

// Files of `straight` (relative paths) that `restarted` lacks or holds otherwise; how many
// were compared goes to `compared`.
inline std::vector<std::string> differing_outputs(const std::filesystem::path& straight,
                                                  const std::filesystem::path& restarted,
                                                  int* compared) {
  std::vector<std::string> differ;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(straight)) {
    if (!entry.is_regular_file()) continue;
    const auto name = entry.path().filename().string();
    const auto ext = entry.path().extension().string();
    if (name == "summary.json" || name == "checkpoint.h5") continue;
    const auto relative = entry.path().lexically_relative(straight);
    if (ext == ".h5") {
      ++*compared;
      if (!same_dataset(entry.path(), restarted / relative)) differ.push_back(relative);
      continue;
    }
    ++*compared;
    if (bytes_of(entry.path()) != bytes_of(restarted / relative)) differ.push_back(relative);
  }
  return differ;
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
  std::string captured;
  std::string* out_ptr = runtime().size() > 1 ? nullptr : &captured;
  const std::string& out = captured;
  const auto straight = dir / "straight";
  EXPECT_EQ(run_surrox_in_process(with({"-o", straight.string()}), out_ptr), 0) << out;
  const nlohmann::json full = summary_results(straight);
  for (long stop : stops) {
    EXPECT_LT(stop, full["steps"].get<long>()) << "a stop after the run's end tests nothing";
    const auto split = dir / ("stopped_at_" + std::to_string(stop));
    EXPECT_EQ(run_surrox_in_process(
                  with({"-o", split.string(), "--max-steps", std::to_string(stop)}), out_ptr),
              0)
        << out;
    EXPECT_EQ(
        run_surrox_in_process(
            with({"-o", split.string(), "--restart", (split / "checkpoint.h5").string()}), out_ptr),
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
