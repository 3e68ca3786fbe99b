#pragma once
// Runs a case's solver to the end: time loop with progress, divergence checks, field output
// at the case's interval, and the figures for summary.json.
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/runtime.hpp"
#include "io/case_file.hpp"

namespace surrox::apps {

nlohmann::json run_solver(Runtime& runtime, const io::CaseFile& case_file,
                          const std::filesystem::path& output_dir);

}  // namespace surrox::apps
