// The MD engine's kernels at the size of the LAMMPS in.lj benchmark (32,000 LJ atoms, fcc
// 0.8442, rc 2.5, skin 0.3) and of the Si benchmark (32,768 atoms, Si.sw): neighbour-list
// builds (ghosts, cells, lists) and force evaluations. The side-by-side comparison with LAMMPS
// is compare_lammps.sh; this isolates the kernels for profiling.
#include <benchmark/benchmark.h>

#include "solvers/md/lattice.hpp"
#include "solvers/md/neighbor_list.hpp"
#include "solvers/md/pair_lj_cut.hpp"
#include "solvers/md/pair_sw.hpp"

namespace md = surrox::solvers::md;

namespace {

struct Setup {
  md::System system;
  md::NeighborList list;
  std::unique_ptr<md::Potential> potential;
};

Setup make(bool sw) {
  Setup s;
  md::AtomData data = sw ? md::make_lattice("diamond", 5.431, {16, 16, 16}, 28.06)
                         : md::make_lattice("fcc", std::cbrt(4 / 0.8442), {20, 20, 20}, 1.0);
  md::create_velocities(data, sw ? 1000.0 : 1.44, 87287, md::Units::from_name(sw ? "metal" : "lj"));
  // Thermal displacements so the lists are not those of a perfect crystal.
  for (long i = 0; i < data.natoms(); ++i)
    for (int d = 0; d < 3; ++d) data.x[i][d] += 0.02 * data.v[i][d] / (sw ? 10.0 : 1.0);
  for (long i = 0; i < data.natoms(); ++i)
    for (int d = 0; d < 3; ++d)
      if (data.x[i][d] < 0) data.x[i][d] += data.box.hi[d];
  s.system.load(data);
  if (sw)
    s.potential = std::make_unique<md::PairSw>(SURROX_SOURCE_DIR "/tests/md/Si.sw", "Si");
  else
    s.potential = std::make_unique<md::PairLjCut>(1.0, 1.0, 2.5, false);
  s.list.setup(s.system.box, s.potential->cutoff(), sw ? 1.0 : 0.3, s.potential->half_list());
  s.list.build(s.system, 0);
  return s;
}

void NeighborBuild(benchmark::State& state) {
  Setup s = make(state.range(0) == 1);
  for (auto _ : state) {
    s.list.build(s.system, 1);
    Kokkos::fence();
  }
  state.counters["atoms"] = static_cast<double>(s.system.nlocal);
}

void Force(benchmark::State& state) {
  Setup s = make(state.range(0) == 1);
  for (auto _ : state) {
    Kokkos::deep_copy(s.system.f, 0.0);
    md::ForceTally none;
    s.potential->compute(s.system, s.list, none);
    s.list.reverse_forces(s.system);
    Kokkos::fence();
  }
  state.counters["atoms"] = static_cast<double>(s.system.nlocal);
}

}  // namespace

// Argument 0: Lennard-Jones in.lj; 1: Stillinger–Weber silicon.
BENCHMARK(NeighborBuild)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(Force)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
