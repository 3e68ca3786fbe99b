#pragma once
// The state of a molecular-dynamics system: an orthorhombic periodic box, unit conventions
// (LAMMPS `units lj` and `units metal`), the host-side description of a configuration that
// readers and lattice builders produce (AtomData), and the device-side atoms (System) the
// force and integrator kernels work on. Owned atoms come first (0..nlocal), ghost images of
// owned atoms after them (nlocal..nall); ghosts carry positions and receive forces only.
#include <Kokkos_Core.hpp>
#include <array>
#include <string>
#include <vector>

namespace surrox::solvers::md {

using Vec3View = Kokkos::View<double* [3], Kokkos::LayoutRight>;
using IntView = Kokkos::View<int*>;
using TagView = Kokkos::View<long*>;
using RealView = Kokkos::View<double*>;

// Axis-aligned periodic box [lo, hi) in each direction.
struct Box {
  std::array<double, 3> lo{0, 0, 0}, hi{1, 1, 1};
  double length(int d) const { return hi[d] - lo[d]; }
  double volume() const { return length(0) * length(1) * length(2); }
};

// LAMMPS unit constants (src/update.cpp, 29 Sep 2021) and thermo normalisation defaults.
struct Units {
  std::string name = "lj";
  double boltz = 1, mvv2e = 1, ftm2v = 1, nktv2p = 1;
  bool normalize = true;  // thermo energies per atom (LAMMPS: yes for lj, no otherwise)
  static Units from_name(const std::string& name);  // "lj" or "metal"
};

// A configuration on the host: what data files and lattices give, what writers take.
struct AtomData {
  Box box;
  int ntypes = 1;
  std::vector<double> mass;  // per type, index 1..ntypes (mass[0] unused)
  std::vector<long> tag;     // atom ids (1-based)
  std::vector<int> type;     // 1..ntypes
  std::vector<std::array<double, 3>> x, v;
  std::vector<std::array<int, 3>> image;  // periodic image flags
  bool has_velocities = false;
  long natoms() const { return static_cast<long>(tag.size()); }
};

// Device-side atoms. Capacity may exceed nall; rows past nall are scratch.
struct System {
  Box box;
  Units units;
  int ntypes = 1;
  long nlocal = 0, nall = 0;
  Vec3View x, v, f;
  IntView type;
  TagView tag;
  Kokkos::View<int* [3], Kokkos::LayoutRight> image;
  RealView mass;  // per type (index 0 unused)

  void load(const AtomData& data);  // replaces the atoms and masses (no ghosts); keeps units
  AtomData owned_atoms() const;     // owned atoms in index order, positions as they are
  AtomData to_host() const;         // owned atoms in id order, wrapped into the box
  void reserve(long capacity);      // grows x, f, type, tag to at least `capacity` rows
};

}  // namespace surrox::solvers::md
