// surrox validate CASE: check a case file against the schemas without running it.
#include <spdlog/spdlog.h>

#include <iostream>

#include "apps/command.hpp"
#include "apps/coupled_run.hpp"
#include "apps/run_case.hpp"
#include "core/yaml_json.hpp"
#include "io/case_file.hpp"

namespace surrox::apps {
namespace {

class ValidateCommand final : public Command {
 public:
  std::string name() const override { return "validate"; }
  std::string description() const override {
    return "Check a case file (keys, types, ranges, types of components) without running it; "
           "prints the resolved case";
  }
  void configure(CLI::App& app) override {
    app.add_option("case", case_path_, "case file (YAML)")->required();
    app.add_option("--set", overrides_, "override a case key after the file")
        ->type_name("KEY.PATH=VALUE");
    app.add_flag("-q,--quiet", quiet_, "do not print the resolved case");
  }
  // It prints its answer: no folder unless -o is given.
  std::filesystem::path default_output_dir() const override { return {}; }
  nlohmann::json run(Runtime& runtime, const std::filesystem::path&,
                     nlohmann::json& results) override {
    const io::CaseFile case_file = io::load_case(
        case_path_, has_coupler_section(case_path_) ? coupled_case_schema() : run_case_schema(),
        overrides_);
    if (runtime.root()) {
      if (!quiet_) std::cout << case_file.resolved_yaml();
      spdlog::info("{}: valid", case_path_);
    }
    results["valid"] = true;
    results["case_file"] = case_path_;
    return yaml_to_json(case_file.root.yaml());
  }

 private:
  std::string case_path_;
  std::vector<std::string> overrides_;
  bool quiet_ = false;
};

}  // namespace

std::unique_ptr<Command> make_validate_command() { return std::make_unique<ValidateCommand>(); }

}  // namespace surrox::apps
