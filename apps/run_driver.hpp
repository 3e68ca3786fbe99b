#pragma once
// Runs a case's solver to the end: time loop with progress, divergence checks, field output
// at the case's interval, monitor.csv, periodic checkpoints, restart, and the figures for
// summary.json.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/runtime.hpp"
#include "io/case_file.hpp"

namespace surrox::apps {

struct RunOptions {
  std::filesystem::path output_dir;
  std::optional<std::filesystem::path> restart_from;  // a checkpoint.h5 of an earlier run
  bool show_progress = true;  // false inside a sweep, which reports progress over its cases
  long long max_steps =
      0;  // stop (with a checkpoint) after this many steps of this invocation; 0: run to the end
};

nlohmann::json run_solver(Runtime& runtime, const io::CaseFile& case_file,
                          const RunOptions& options);

}  // namespace surrox::apps
