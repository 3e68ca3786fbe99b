#pragma once
// A pair potential from outside surrox_solvers, as a torch-side learned potential would be:
// LAMMPS harmonic/cut, E = k (r_c − r)² for r < r_c (a soft repulsion), written as a style for
// the md pair driver and registered through solvers::md::register_potential.
namespace surrox::solvers::md::test {

// Registers "harmonic/cut" (keys k, cutoff) once; later calls do nothing.
void register_harmonic_pair();

}  // namespace surrox::solvers::md::test
