#pragma once
// Paths the tests need: the source tree, ParaView's sample files in ../shared/data, the
// surrox executable, and a fresh scratch folder per test.
#include <filesystem>
#include <string>

namespace surrox {
class Runtime;
}

namespace surrox::testing {

// True in the `debug` preset's build (AddressSanitizer). Instrumented code runs several times
// slower, and a throwing `new` that cannot be satisfied ends the process there (ASan reports
// out-of-memory instead of throwing std::bad_alloc), so a few tests adapt.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif

// The Runtime the test main created for this process.
Runtime& runtime();
void set_runtime(Runtime* runtime);

std::filesystem::path source_dir();
std::filesystem::path shared_data(const std::string& relative);  // fails the test if missing
std::filesystem::path surrox_executable();
// An empty folder unique to the running test (and shared by its MPI ranks).
std::filesystem::path scratch_dir();

// Runs a shell command outside this process's MPI job, capturing stdout+stderr; returns the
// exit code (128 + signal when killed).
int run_command(const std::string& command, std::string* output = nullptr);

// Runs `surrox ARGS`, captures stdout+stderr; returns the exit code.
int run_surrox(const std::string& args, std::string* output = nullptr);

// The command that runs a Python script under ParaView: $SURROX_PVPYTHON, else scripts/pvpython
// (pvbatch with the modules scripts/bootstrap.sh unpacks). Empty, with `why` set, when absent.
std::string paraview_python(std::string* why);

}  // namespace surrox::testing
