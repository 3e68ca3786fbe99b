// surrox run CASE: validate the case, run its solver, write fields and summary.json.
#include <spdlog/spdlog.h>

#include "apps/command.hpp"
#include "apps/coupled_run.hpp"
#include "apps/run_case.hpp"
#include "apps/run_driver.hpp"
#include "apps/sweep_runner.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/yaml_json.hpp"
#include "io/case_file.hpp"

namespace surrox::apps {
namespace {

class RunCommand final : public Command {
 public:
  std::string name() const override { return "run"; }
  std::string description() const override {
    return "Run a case file: solve, write VTK + HDF5 fields and summary.json (a case with a sweep section "
           "runs every case of the family and merges them into one dataset)";
  }
  void configure(CLI::App& app) override {
    app.add_option("case", case_path_, "case file (YAML); see docs/case-reference.md")->required();
    app.add_option("--set", overrides_,
                   "override a case key after the file: --set solver.end_time=0.1")
        ->type_name("KEY.PATH=VALUE");
    app.add_option("--restart", restart_,
                   "continue from a checkpoint.h5 written by an earlier run of this case, bit "
                   "for bit; into that run's -o folder, its monitor.csv, fields.pvd and "
                   "fields.h5 go on from the checkpoint's step");
    app.add_option(
           "--max-steps", max_steps_,
           "stop after this many steps, writing checkpoint.h5 (for batch queues; continue with --restart)")
        ->check(CLI::PositiveNumber);
  }
  std::filesystem::path default_output_dir() const override {
    return default_output_for("", case_path_.empty() ? "CASE" : case_path_);
  }
  nlohmann::json run(Runtime& runtime, const std::filesystem::path& output_dir,
                     nlohmann::json& results) override {
    // A `coupler` section makes the case a comparison driven by that coupler
    // (apps/coupled_run.hpp).
    const bool coupled = has_coupler_section(case_path_);
    const io::CaseFile case_file =
        io::load_case(case_path_, coupled ? coupled_case_schema() : run_case_schema(), overrides_);
    const CaseNode runtime_node = case_file.root.section("runtime");
    if (!common.log_level_given)
      spdlog::set_level(runtime.root() || common.log_all_ranks
                            ? spdlog::level::from_str(runtime_node.string("log_level"))
                            : spdlog::level::off);
    if (common.threads == 0)
      runtime.set_torch_threads(static_cast<int>(runtime_node.integer("threads")));
    if (runtime.root()) {
      write_text_atomically(output_dir / "case.resolved.yaml", case_file.resolved_yaml());
      spdlog::info("case {} → {}", case_path_, output_dir.string());
    }
    RunOptions options;
    options.output_dir = output_dir;
    if (!restart_.empty()) options.restart_from = restart_;
    options.max_steps = max_steps_;
    if (coupled) {
      if (!restart_.empty() || max_steps_ > 0)
        throw InputError(
            "--restart and --max-steps apply to one solver run, not to a coupler's comparison");
      results = run_coupled(runtime, case_file, case_path_, overrides_, output_dir);
    } else if (is_sweep(case_file)) {
      SweepOptions sweep;
      sweep.case_path = case_path_;
      sweep.overrides = overrides_;
      sweep.output_dir = output_dir;
      if (!restart_.empty() || max_steps_ > 0)
        throw InputError(
            "--restart and --max-steps apply to one case; a sweep resumes by running it again");
      results = run_sweep(runtime, case_file, sweep);
    } else {
      results = run_solver(runtime, case_file, options);
    }
    return yaml_to_json(case_file.root.yaml());
  }

 private:
  std::string case_path_;
  std::vector<std::string> overrides_;
  std::string restart_;
  long long max_steps_ = 0;
};

}  // namespace

std::unique_ptr<Command> make_run_command() { return std::make_unique<RunCommand>(); }

}  // namespace surrox::apps
