#pragma once
// Case files with a `coupler` section: `surrox run` sees the section and, instead of running the
// solver once, hands the coupler the solver cases to compare on: the `sweep` section's points
// (each validated like a sweep point) or, without one, the case itself. The schema is the run
// schema plus the `coupler: {type: NAME, ...}` component (couplers/coupler.hpp).
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/runtime.hpp"
#include "core/schema.hpp"
#include "io/case_file.hpp"

namespace surrox::apps {

const Schema& coupled_case_schema();

// True when the file parses as YAML with a top-level `coupler` key (anything else: false, and
// the ordinary loading reports what is wrong with it).
bool has_coupler_section(const std::filesystem::path& case_path);

nlohmann::json run_coupled(Runtime& runtime, const io::CaseFile& case_file,
                           const std::filesystem::path& case_path,
                           const std::vector<std::string>& overrides,
                           const std::filesystem::path& output_dir);

}  // namespace surrox::apps
