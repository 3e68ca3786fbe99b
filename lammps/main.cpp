// surrox-lammps: LAMMPS (the library Debian's liblammps-dev ships) with surrox's pair styles in
// its style map, run like `lmp`: the same command-line arguments (-in, -var, -log, -screen, -h,
// ...), under mpirun for several ranks. `surrox lammps ARGS` runs it too. Built only when CMake
// finds LAMMPS; the binary links LAMMPS and is therefore covered by LAMMPS's GPL-2.0
// (docs/lammps.md).
#include <ATen/Parallel.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "input.h"
#include "lammps.h"
#include "lammps/pair_surrox_deep.hpp"

namespace {

constexpr const char* kUsage =
    "usage: surrox-lammps [LAMMPS's arguments: -in FILE, -var NAME VALUE, -log FILE, ...]\n"
    "       mpirun -np N surrox-lammps -in in.lammps\n"
    "LAMMPS with surrox's pair styles: pair_style surrox/deep model.pt [model1.pt ...]\n"
    "[out_freq N] [out_file FILE] [relative V]; pair_coeff * * ELEMENT... (docs/lammps.md).\n"
    "LibTorch threads per rank: OMP_NUM_THREADS (default 1). LAMMPS's own help: -h.\n";

// One LibTorch thread per rank unless OMP_NUM_THREADS says otherwise: under mpirun a rank per
// core is the usual layout, and LibTorch would otherwise start a thread per core in every rank.
void set_torch_threads() {
  const char* threads = std::getenv("OMP_NUM_THREADS");
  const int n = threads ? std::atoi(threads) : 1;
  at::set_num_threads(n > 0 ? n : 1);
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0) {
      std::fputs(kUsage, stdout);
      return 0;
    }
  MPI_Init(&argc, &argv);
  set_torch_threads();
  int code = 0;
  try {
    auto* lmp = new LAMMPS_NS::LAMMPS(argc, argv, MPI_COMM_WORLD);
    surrox::lammps::register_pair_styles(lmp);
    lmp->input->file();
    delete lmp;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "surrox-lammps: %s\n", e.what());
    code = 1;
    MPI_Abort(MPI_COMM_WORLD, code);
  }
  MPI_Finalize();
  return code;
}
