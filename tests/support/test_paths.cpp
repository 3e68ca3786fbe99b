#include "support/test_paths.hpp"

#include <gtest/gtest.h>
#include <mpi.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>

#include "core/mpi_launcher_environment.hpp"

namespace surrox::testing {
namespace {
Runtime* g_runtime = nullptr;
}

Runtime& runtime() { return *g_runtime; }
void set_runtime(Runtime* runtime) { g_runtime = runtime; }

std::filesystem::path source_dir() { return SURROX_SOURCE_DIR; }

std::filesystem::path shared_data(const std::string& relative) {
  const std::filesystem::path path = std::filesystem::path(SURROX_SHARED_DATA_DIR) / relative;
  if (!std::filesystem::exists(path))
    ADD_FAILURE() << "test data missing: " << path
                  << " (../shared/data must sit beside the checkout)";
  return path;
}

std::filesystem::path surrox_executable() { return SURROX_EXECUTABLE; }

std::filesystem::path scratch_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "global";
  for (char& c : name)
    if (c == '/') c = '_';
  const auto path = std::filesystem::path(SURROX_BINARY_DIR) / "test-scratch" / name;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

int run_command(const std::string& command, std::string* output) {
  // A child must not inherit this process's MPI environment (singleton or mpiexec job), or
  // its MPI_Init would try to join our job: drop every MPI launcher variable.
  std::string isolated = "env";
  for (char** variable = environ; *variable; ++variable) {
    const std::string entry = *variable;
    const std::string name = entry.substr(0, entry.find('='));
    if (is_mpi_launcher_variable(name)) isolated += " -u " + name;
  }
  isolated += " " + command + " 2>&1";
  FILE* pipe = popen(isolated.c_str(), "r");
  if (!pipe) return -1;
  std::array<char, 4096> buffer;
  std::string text;
  while (std::fgets(buffer.data(), buffer.size(), pipe)) text += buffer.data();
  const int status = pclose(pipe);
  if (output) *output = text;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int run_surrox(const std::string& args, std::string* output) {
  return run_command(surrox_executable().string() + " " + args, output);
}

std::string paraview_python(std::string* why) {
  if (const char* from_env = std::getenv("SURROX_PVPYTHON"); from_env && *from_env) return from_env;
  const std::string wrapper = (source_dir() / "scripts/pvpython").string();
  if (run_command(wrapper + " --available") == 0) return wrapper;
  if (why)
    *why = "ParaView's Python is not installed (run scripts/bootstrap.sh or set SURROX_PVPYTHON)";
  return "";
}

}  // namespace surrox::testing
