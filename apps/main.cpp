// The surrox executable: register the surrogate families, parse the command line, start the
// runtime, run one command (apps/command_line.hpp) and map errors to exit codes (0 success,
// 2 bad input, 1 runtime failure).
#include <unistd.h>

#include "apps/command_line.hpp"
#include "apps/lammps_forward.hpp"
#include "core/error.hpp"
#include "core/sanitizer_keep_libraries.hpp"
#include "families/builtin_families.hpp"

int main(int argc, char** argv) {
  using namespace surrox;
  // `surrox lammps` becomes surrox-lammps before MPI starts (apps/lammps_forward.hpp).
  if (const auto code = apps::forward_to_lammps(argc, argv)) return *code;
  // The families' training, couplers, pair styles and verbs, before anything is parsed.
  families::register_builtin_families();
  apps::CommandLine command_line;
  if (const auto code = command_line.parse(std::vector<std::string>(argv, argv + argc)))
    return *code;
  apps::Command& command = command_line.command();
  std::unique_ptr<Runtime> runtime;
  try {
    RuntimeOptions options;
    options.log_level = command.common.log_level;
    options.log_all_ranks = command.common.log_all_ranks;
    options.torch_threads = command.common.threads;
    runtime = std::make_unique<Runtime>(argc, argv, options);
    runtime->report();
  } catch (const Error& e) {
    return apps::report_failure(runtime.get(), static_cast<int>(e.exit_code()), e.what());
  } catch (const std::exception& e) {
    return apps::report_failure(runtime.get(), static_cast<int>(ExitCode::kFailure), e.what());
  }
  return command_line.run(*runtime);
}
