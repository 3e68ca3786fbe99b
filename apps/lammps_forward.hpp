#pragma once
// `surrox lammps ARGS`: runs surrox-lammps (lammps/main.cpp: LAMMPS with pair_style
// surrox/deep) in this process's place, before MPI starts, so that `mpirun -np N surrox lammps
// -in in.si` is LAMMPS under mpirun. surrox itself does not link LAMMPS (GPL-2.0); the driver
// is its own binary, found as $SURROX_LAMMPS, beside surrox, or in the build tree's lammps/.
#include <filesystem>
#include <optional>
#include <string>

namespace surrox::apps {

// For `surrox lammps ...`: does not return when surrox-lammps starts; returns the exit code
// when it cannot (1, with the reason on stderr). For any other command: nullopt.
std::optional<int> forward_to_lammps(int argc, char** argv);

// The surrox-lammps binary, or nullopt with the places tried in `tried` (one per line).
std::optional<std::filesystem::path> find_lammps_driver(std::string* tried = nullptr);

}  // namespace surrox::apps
