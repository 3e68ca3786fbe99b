#include "apps/coupled_run.hpp"

#include <spdlog/spdlog.h>
#include <yaml-cpp/yaml.h>

#include "apps/run_case.hpp"
#include "apps/sweep_runner.hpp"
#include "core/error.hpp"
#include "couplers/coupler.hpp"

namespace surrox::apps {

const Schema& coupled_case_schema() {
  static const Schema schema = [] {
    Schema root = run_case_schema();
    root.component(
        "coupler", couplers::registry(),
        "a coupler that drives the solver with a surrogate on the cases of the sweep section "
        "(without values: on this case)");
    return root;
  }();
  return schema;
}

bool has_coupler_section(const std::filesystem::path& case_path) {
  try {
    if (!std::filesystem::is_regular_file(case_path) ||
        std::filesystem::file_size(case_path) > io::kMaxCaseFileBytes)
      return false;
    const YAML::Node root = YAML::LoadFile(case_path.string());
    return root.IsMap() && root["coupler"].IsDefined();
  } catch (const std::exception&) {
    return false;
  }
}

nlohmann::json run_coupled(Runtime& runtime, const io::CaseFile& case_file,
                           const std::filesystem::path& case_path,
                           const std::vector<std::string>& overrides,
                           const std::filesystem::path& output_dir) {
  // Every test case is loaded and validated before any runs (bad input anywhere: exit 2 first).
  std::vector<io::CaseFile> files;
  std::vector<couplers::CoupledCase> cases;
  if (is_sweep(case_file)) {
    for (const SweepPoint& point : expand_sweep(case_file)) {
      std::vector<std::string> all = overrides;
      for (const auto& o : point.overrides()) all.push_back(o);
      files.push_back(io::load_case(case_path, coupled_case_schema(), all));
      cases.push_back({point.name, point.values, files.back().root.section("solver")});
    }
  } else {
    files.push_back(case_file);
    cases.push_back({"case_0000", {}, files.back().root.section("solver")});
  }
  const CaseNode section = case_file.root.section("coupler");
  const auto coupler = couplers::registry().create(section.type());
  spdlog::info("coupler {}: {} case(s)", section.type(), cases.size());
  nlohmann::json results;
  results["coupler"] = section.type();
  coupler->run(runtime, section, cases, output_dir, results);
  return results;
}

}  // namespace surrox::apps
