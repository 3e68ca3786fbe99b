#pragma once
// Crystal lattices (LAMMPS `lattice` + `create_atoms`) and seeded Maxwell velocities
// (`velocity all create T seed`, with zero total momentum and exactly temperature T over
// 3N − 3 degrees of freedom). The velocities are surrox's own stream, not LAMMPS's: for
// parity with LAMMPS start both codes from a data file instead.
#include <array>
#include <string>

#include "solvers/md/md_system.hpp"

namespace surrox::solvers::md {

// Basis atoms per cubic cell of a lattice style: sc 1, bcc 2, fcc 4, diamond 8.
int lattice_basis_count(const std::string& style);

// Atoms of `style` with cubic cell edge `a`, replicated n[0] × n[1] × n[2] times; box from 0.
AtomData make_lattice(const std::string& style, double a, const std::array<long, 3>& n,
                      double mass);

// Gaussian velocities from `seed`, zero momentum, scaled to temperature T (units' boltz, mvv2e).
void create_velocities(AtomData& data, double temperature, long seed, const Units& units);

// Temperature of the data's velocities with 3N − 3 degrees of freedom.
double temperature_of(const AtomData& data, const Units& units);

}  // namespace surrox::solvers::md
