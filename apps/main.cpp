// The surrox executable: parse the command line, start the runtime, run one command, write
// summary.json, and map errors to exit codes (0 success, 2 bad input, 1 runtime failure).
#include <unistd.h>

#include <iostream>

#include "apps/command.hpp"
#include "apps/summary.hpp"
#include "core/error.hpp"
#include "core/sanitizer_keep_libraries.hpp"
#include "core/timer.hpp"
#include "core/version.hpp"
#include "couplers/deep_potential_pair.hpp"

namespace {

int fail(const surrox::Runtime* runtime, int code, const std::string& message) {
  std::cerr << "surrox: error: " << message << std::endl;
  // With several ranks, the others may wait in a collective forever: take the job down.
  if (runtime && runtime->size() > 1) MPI_Abort(runtime->comm(), code);
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace surrox;
  // Potentials from torch-side libraries, before any case is validated.
  couplers::register_deep_potential_pair();
  CLI::App app{"surrox: Kokkos solvers and LibTorch surrogates for scientific machine learning"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(kVersionText));
  auto commands = apps::make_commands();
  std::vector<std::pair<CLI::App*, apps::Command*>> parsers;
  for (auto& command : commands) {
    CLI::App* sub = app.add_subcommand(command->name(), command->description());
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
    parsers.emplace_back(sub, command.get());
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(ExitCode::kBadInput);
  }

  apps::Command* command = nullptr;
  for (auto& [sub, cmd] : parsers) {
    if (!sub->parsed()) continue;
    command = cmd;
    command->common.log_level_given = sub->get_option("--log-level")->count() > 0;
  }

  std::unique_ptr<Runtime> runtime;
  try {
    RuntimeOptions options;
    options.log_level = command->common.log_level;
    options.log_all_ranks = command->common.log_all_ranks;
    options.torch_threads = command->common.threads;
    runtime = std::make_unique<Runtime>(argc, argv, options);
    runtime->report();
    Stopwatch wall;
    const std::filesystem::path output_dir =
        command->common.output_dir.empty() ? command->default_output_dir()
                                           : std::filesystem::path(command->common.output_dir);
    nlohmann::json results = nlohmann::json::object();
    const nlohmann::json resolved_case = command->run(*runtime, output_dir, results);
    if (runtime->root() && !output_dir.empty()) {
      apps::SummaryWriter summary(command->name(), std::vector<std::string>(argv, argv + argc));
      summary.write(output_dir, *runtime, resolved_case, results, wall.seconds());
    }
    return 0;
  } catch (const Error& e) {
    return fail(runtime.get(), static_cast<int>(e.exit_code()), e.what());
  } catch (const CLI::Error& e) {
    return fail(runtime.get(), static_cast<int>(ExitCode::kBadInput), e.what());
  } catch (const std::exception& e) {
    return fail(runtime.get(), static_cast<int>(ExitCode::kFailure), e.what());
  }
}
