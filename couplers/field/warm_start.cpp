#include "couplers/field/warm_start.hpp"

#include <spdlog/spdlog.h>

#include "core/atomic_file.hpp"
#include "couplers/field/warm_start_report.hpp"
#include "couplers/field/warm_start_runs.hpp"
#include "couplers/field/warm_start_setup.hpp"
#include "couplers/field/warm_start_statistics.hpp"

namespace surrox::couplers {

Schema WarmStart::schema() {
  Schema s(
      "Cold start vs. warm starts from surrogate predictions of the steady airfoil field, on the "
      "cases of the "
      "`sweep` section (the held-out test set), each to the solver's convergence criterion.");
  s.strings("models",
            "model.pt files written by `surrox train` (relative to the case file); empty: cold "
            "starts only "
            "(the baseline)");
  s.strings("labels",
            "a name per model for the summary (e.g. [mse, area_weighted]); empty: the models' "
            "folder names")
      .fallback("[]");
  s.integer("cfl_ramp",
            "cycles over which a warm run's CFL number grows from 1 to solver.cfl (the rule of "
            "solver.cfl_ramp, which the cold runs keep): a start near the solution does not need "
            "the ramp that carries a free-stream start through its transient; -1: solver.cfl_ramp")
      .at_least(-1)
      .fallback("2");
  return s;
}

void WarmStart::run(Runtime& runtime, const CaseNode& section,
                    const std::vector<CoupledCase>& cases, const std::filesystem::path& output_dir,
                    nlohmann::json& results) {
  WarmStartSetup setup = prepare_warm_start(runtime, section, cases);
  const std::vector<std::string> labels = setup.labels();

  std::vector<CaseRecord> records;
  nlohmann::json per_case = nlohmann::json::array();
  for (std::size_t k = 0; k < cases.size(); ++k) {
    spdlog::info("warm start: case {}/{} {}", k + 1, cases.size(), cases[k].name);
    records.push_back(run_warm_start_case(runtime, cases[k], setup.channels[k], setup.models,
                                          setup.warm_cfl_ramp));
    nlohmann::json entry = case_results(records.back(), labels);
    entry["surface_csv"] = write_surface_csv(output_dir, records.back(), labels).string();
    per_case.push_back(entry);
  }
  write_text_atomically(output_dir / "comparison.csv", comparison_csv(records, labels));

  const WarmStartSummary summary = summarize(records, labels.size());
  const std::string table = comparison_table(summary, cases.size(), labels);
  write_text_atomically(output_dir / "comparison.md", table);
  results["cases"] = per_case;
  results["medians"] = model_results(summary, labels);
  results["cold_median_iterations"] = summary.cold_median_iterations;
  results["cold_median_wall_time_s"] = summary.cold_median_wall_time_s;
  results["table"] = table;
  results["outputs"] = {{"comparison_csv", (output_dir / "comparison.csv").string()},
                        {"comparison_md", (output_dir / "comparison.md").string()}};
}

}  // namespace surrox::couplers
