#pragma once
// The shipped NACA 0012 RANS case (cases/airfoil/naca0012_rans.yaml) run through the CLI into a
// scratch folder with the given --set overrides; `summary` receives its summary.json. Failure
// (exit code or no summary) carries the CLI's output.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/test_paths.hpp"

namespace surrox::testing {

inline ::testing::AssertionResult run_shipped_rans(const std::string& overrides,
                                                   nlohmann::json& summary) {
  const std::string rans = (source_dir() / "cases/airfoil/naca0012_rans.yaml").string();
  const auto dir = scratch_dir();
  std::string out;
  const int code = run_surrox("run " + rans + " -o " + dir.string() + " " + overrides, &out);
  if (code != 0) return ::testing::AssertionFailure() << "exit " << code << ": " << out;
  std::ifstream in(dir / "summary.json");
  if (!in) return ::testing::AssertionFailure() << "no summary.json: " << out;
  summary = nlohmann::json::parse(in);
  return ::testing::AssertionSuccess();
}

}  // namespace surrox::testing
