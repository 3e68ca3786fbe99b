#include "apps/lammps_forward.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace surrox::apps {

namespace {

std::vector<std::filesystem::path> driver_candidates() {
  std::vector<std::filesystem::path> where;
  if (const char* explicit_path = std::getenv("SURROX_LAMMPS")) where.emplace_back(explicit_path);
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    where.push_back(self.parent_path() / "surrox-lammps");                           // installed
    where.push_back(self.parent_path().parent_path() / "lammps" / "surrox-lammps");  // build tree
  }
  return where;
}

}  // namespace

std::optional<std::filesystem::path> find_lammps_driver(std::string* tried) {
  for (const auto& driver : driver_candidates()) {
    if (std::filesystem::is_regular_file(driver) && ::access(driver.c_str(), X_OK) == 0)
      return driver;
    if (tried) *tried += "\n  " + driver.string() + " (absent)";
  }
  return std::nullopt;
}

std::optional<int> forward_to_lammps(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "lammps") != 0) return std::nullopt;
  std::vector<char*> args;
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  std::string tried;
  for (const auto& driver : driver_candidates()) {
    if (!std::filesystem::is_regular_file(driver)) {
      tried += "\n  " + driver.string() + " (absent)";
      continue;
    }
    const std::string path = driver.string();
    args[0] = const_cast<char*>(path.c_str());
    execv(path.c_str(), args.data());
    tried += "\n  " + path + " (" + std::strerror(errno) + ")";
  }
  std::fprintf(stderr,
               "surrox lammps: no surrox-lammps to run; this surrox was built without LAMMPS "
               "(install liblammps-dev and rebuild; docs/lammps.md). Tried:%s\n",
               tried.c_str());
  return 1;
}

}  // namespace surrox::apps
