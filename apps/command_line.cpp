#include "apps/command_line.hpp"

#include <iostream>

#include "apps/summary.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "core/version.hpp"

namespace surrox::apps {

int report_failure(const Runtime* runtime, int code, const std::string& message) {
  std::cerr << "surrox: error: " << message << std::endl;
  if (runtime && runtime->size() > 1) MPI_Abort(runtime->comm(), code);
  return code;
}

CommandLine::CommandLine()
    : app_("surrox: Kokkos solvers and LibTorch surrogates for scientific machine learning"),
      commands_(make_commands()) {
  app_.require_subcommand(1);
  // Not a CLI11 subcommand: it hands the process to surrox-lammps before MPI starts (main.cpp).
  app_.footer(
      "Also: surrox lammps ARGS runs LAMMPS with pair_style surrox/deep, with LAMMPS's "
      "own arguments (surrox lammps --help; docs/lammps.md).");
  app_.set_version_flag("--version", std::string(kVersionText));
  for (auto& command : commands_) {
    CLI::App* sub = app_.add_subcommand(command->name(), command->description());
    const std::filesystem::path default_output = command->default_output_dir();
    sub->add_option("-o,--output", command->common.output_dir,
                    default_output.empty()
                        ? std::string("folder for summary.json (default: none, nothing is written)")
                        : "output folder (default: " + default_output.string() + ")");
    sub->add_option("--log-level", command->common.log_level,
                    "trace, debug, info, warn, error, off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
    sub->add_option("--threads", command->common.threads,
                    "LibTorch threads per rank (0: cores / ranks on the node)")
        ->check(CLI::NonNegativeNumber);
    sub->add_flag("--log-all-ranks", command->common.log_all_ranks, "log from every MPI rank");
    command->configure(*sub);
    sub->footer(std::string("Exit codes: 0 success, 2 bad input, 1 runtime failure. ") +
                (default_output.empty() ? "Writes OUTDIR/summary.json when -o OUTDIR is given."
                                        : "Writes OUTDIR/summary.json."));
    parsers_.emplace_back(sub, command.get());
  }
}

std::optional<int> CommandLine::parse(const std::vector<std::string>& arguments) {
  arguments_ = arguments;
  // CLI11 takes the arguments after the program's name, last first.
  std::vector<std::string> reversed(arguments.rbegin(), arguments.rend());
  if (!reversed.empty()) reversed.pop_back();
  try {
    app_.parse(reversed);
  } catch (const CLI::ParseError& e) {
    const int code = app_.exit(e);
    return code == 0 ? 0 : static_cast<int>(ExitCode::kBadInput);
  }
  for (auto& [sub, command] : parsers_) {
    if (!sub->parsed()) continue;
    command_ = command;
    command_->common.log_level_given = sub->get_option("--log-level")->count() > 0;
  }
  return std::nullopt;
}

int CommandLine::run(Runtime& runtime) {
  if (command_->common.threads > 0) runtime.set_torch_threads(command_->common.threads);
  try {
    Stopwatch wall;
    const std::filesystem::path output_dir =
        command_->common.output_dir.empty() ? command_->default_output_dir()
                                            : std::filesystem::path(command_->common.output_dir);
    nlohmann::json results = nlohmann::json::object();
    const nlohmann::json resolved_case = command_->run(runtime, output_dir, results);
    if (runtime.root() && !output_dir.empty()) {
      SummaryWriter summary(command_->name(), arguments_);
      summary.write(output_dir, runtime, resolved_case, results, wall.seconds());
    }
    return 0;
  } catch (const Error& e) {
    return report_failure(&runtime, static_cast<int>(e.exit_code()), e.what());
  } catch (const CLI::Error& e) {
    return report_failure(&runtime, static_cast<int>(ExitCode::kBadInput), e.what());
  } catch (const std::exception& e) {
    return report_failure(&runtime, static_cast<int>(ExitCode::kFailure), e.what());
  }
}

}  // namespace surrox::apps
