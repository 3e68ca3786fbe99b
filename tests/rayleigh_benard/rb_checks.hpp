#pragma once
// Checks the 2D and 3D Rayleigh–Bénard tests share.
//
// expect_cli_restart_bitwise: through the CLI, stop a case after half its steps (--max-steps
// writes checkpoint.h5), continue with --restart into the same folder, and compare
// summary.json's figures and step count, and every output file
// (support/output_comparison.hpp), with the uninterrupted run bit for bit. `run` is
// "run CASE --set ..." without -o; the runs write into dir/full and dir/half. Returns the full
// run's results.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.hpp"
#include "solvers/solver.hpp"
#include "support/output_comparison.hpp"
#include "support/test_paths.hpp"

namespace surrox::testing {

inline nlohmann::json expect_cli_restart_bitwise(const std::string& run,
                                                 const std::filesystem::path& dir) {
  std::string out;
  EXPECT_EQ(run_surrox(run + " -o " + (dir / "full").string(), &out), 0) << out;
  std::ifstream full_in(dir / "full" / "summary.json");
  const auto full = nlohmann::json::parse(full_in)["results"];
  const long steps = full["steps"].get<long>();
  EXPECT_EQ(run_surrox(run + " -o " + (dir / "half").string() + " --max-steps " +
                           std::to_string(steps / 2),
                       &out),
            0)
      << out;
  EXPECT_EQ(run_surrox(run + " -o " + (dir / "half").string() + " --restart " +
                           (dir / "half" / "checkpoint.h5").string(),
                       &out),
            0)
      << out;
  int compared = 0;
  EXPECT_EQ(differing_outputs(dir / "full", dir / "half", &compared), std::vector<std::string>{})
      << "outputs differ after the restart";
  EXPECT_GT(compared, 0);
  std::ifstream resumed_in(dir / "half" / "summary.json");
  const auto resumed = nlohmann::json::parse(resumed_in)["results"];
  EXPECT_EQ(resumed["steps"], full["steps"]);
  EXPECT_EQ(resumed["time"].get<double>(), full["time"].get<double>());
  for (const auto& [name, value] : full["diagnostics"].items())
    EXPECT_EQ(resumed["diagnostics"][name].get<double>(), value.get<double>()) << name;
  return full;
}

// Advances until the solver throws and returns the message of the blow-up: an Error naming the
// step, not an InputError. A failure (and "") when nothing is thrown.
inline std::string blow_up_message(solvers::Solver& solver, int steps = 10) {
  try {
    for (int n = 0; n < steps; ++n) solver.advance();
    ADD_FAILURE() << "no blow-up detected";
  } catch (const InputError& e) {
    ADD_FAILURE() << "a blow-up is not bad input: " << e.what();
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("blew up at step"), std::string::npos) << what;
    return what;
  }
  return "";
}

}  // namespace surrox::testing
