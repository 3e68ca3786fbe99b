#pragma once
// The warm-start comparison written out: the summary.json results (per case and per model), the
// Markdown table (comparison.md), one CSV row per case and start (comparison.csv) and each case's
// surface Cp of the converged field and of every prediction (cases/NAME/surface.csv).
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "couplers/field/warm_start_records.hpp"
#include "couplers/field/warm_start_statistics.hpp"

namespace surrox::couplers {

// summary.json "results" → "cases" entry of one case (the surface CSV's path is added by the
// caller).
nlohmann::json case_results(const CaseRecord& c, const std::vector<std::string>& labels);
// summary.json "results" → "medians": per model label.
nlohmann::json model_results(const WarmStartSummary& summary,
                             const std::vector<std::string>& labels);

std::string comparison_csv(const std::vector<CaseRecord>& records,
                           const std::vector<std::string>& labels);
std::string comparison_table(const WarmStartSummary& summary, std::size_t cases,
                             const std::vector<std::string>& labels);

// Writes OUTDIR/cases/NAME/surface.csv atomically; returns its path.
std::filesystem::path write_surface_csv(const std::filesystem::path& output_dir,
                                        const CaseRecord& c,
                                        const std::vector<std::string>& labels);

}  // namespace surrox::couplers
