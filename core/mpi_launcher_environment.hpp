#pragma once
// The environment variables an MPI launcher gives its processes (Open MPI's OMPI_, ORTE_,
// OPAL_, PMIx's PMIX_, MPICH/Hydra's PMI_ and HYDRA_). A child process that must start its own
// MPI job (surrox-lammps for an exploration, a test's surrox run) drops them, or its MPI_Init
// tries to join the parent's job.
#include <string_view>

namespace surrox {

inline bool is_mpi_launcher_variable(std::string_view name) {
  for (std::string_view prefix : {"OMPI_", "ORTE_", "OPAL_", "PMIX_", "PMI_", "HYDRA_"})
    if (name.substr(0, prefix.size()) == prefix) return true;
  return false;
}

}  // namespace surrox
