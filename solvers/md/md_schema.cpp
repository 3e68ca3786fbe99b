#include <string>

#include "solvers/md/md_solver.hpp"

namespace surrox::solvers::md {

Schema MdSolver::schema() {
  Schema s("Molecular dynamics with LAMMPS conventions: Lennard-Jones and Stillinger–Weber.");
  s.choice("units", {"lj", "metal"},
           "LAMMPS unit system (thermo energies per atom in lj, totals in metal)")
      .fallback("lj");
  s.input_path("data_file",
               "LAMMPS data file (atom_style atomic, optional Velocities); replaces the lattice")
      .optional();
  Schema lattice("A crystal built when no data_file is given (LAMMPS lattice + create_atoms).");
  lattice.choice("style", {"sc", "bcc", "fcc", "diamond"}, "lattice style").fallback("fcc");
  lattice.real("density", "reduced number density (lj units, as `lattice fcc 0.8442`)")
      .above(0)
      .optional();
  lattice
      .real("constant", "cubic cell edge (length units, as `lattice diamond 5.431` in metal units)")
      .above(0)
      .optional();
  lattice.integers("replicate", "unit cells along x, y, z")
      .sized(3)
      .at_least(1)
      .fallback("[10, 10, 10]");
  lattice.real("mass", "atom mass (mass units)").above(0).fallback("1.0");
  s.section("lattice", lattice, "crystal lattice");
  Schema velocity("Seeded Gaussian velocities with zero momentum (LAMMPS velocity all create).");
  velocity.real("temperature", "temperature to create; 0 keeps the data file's velocities")
      .at_least(0)
      .fallback("0");
  velocity.integer("seed", "random seed").at_least(1).fallback("87287");
  s.section("velocity", velocity, "initial velocities");
  s.component("pair", potential_registry(), "the interatomic potential").default_type("lj/cut");
  Schema neighbor("Verlet lists from a cell list (LAMMPS neighbor/neigh_modify).");
  neighbor.real("skin", "extra distance beyond the cutoff").at_least(0).fallback("0.3");
  neighbor.integer("every", "consider a rebuild every this many steps").at_least(1).fallback("1");
  neighbor
      .boolean("check",
               "rebuild only when an atom has moved more than skin/2 (false: at every `every`)")
      .fallback("true");
  neighbor
      .integer("sort",
               "steps between spatial sorts of the atoms by cell, for memory locality (LAMMPS "
               "atom_modify sort); 0: never")
      .at_least(0)
      .fallback("1000");
  s.section("neighbor", neighbor, "neighbour lists");
  Schema integrator("Velocity Verlet, optionally with a thermostat.");
  integrator
      .choice("style", thermostat_registry().names(),
              "ensemble: nve (constant energy), langevin or nose_hoover (thermostats)")
      .fallback("nve");
  integrator.real("temperature", "thermostat target temperature").above(0).fallback("1.0");
  integrator.real("damping", "thermostat damping time (time units)").above(0).fallback("1.0");
  integrator.integer("seed", "Langevin noise seed").at_least(1).fallback("48279");
  s.section("integrator", integrator, "time integration");
  s.section("barostat", CellRescaleBarostat::schema(), "constant pressure");
  s.real("dt", "time step (time units: τ in lj, ps in metal)").above(0).fallback("0.005");
  s.integer("steps", "number of time steps").at_least(0).fallback("100");
  s.real("end_time", "simulated time to run instead of `steps` (steps = ⌈end_time/dt⌉)")
      .above(0)
      .units("time")
      .optional();
  s.integer(
       "thermo",
       "steps between thermo rows (thermo.csv: step, temp, e_pair, e_kin, e_total, press, vol, "
       "lx, ly, lz; summary.json)")
      .at_least(1)
      .fallback("10");
  Schema rdf(
      "Radial distribution function and pressure averaged over samples (LAMMPS compute rdf with "
      "fix ave/time): rdf.csv and summary.json.");
  rdf.integer("bins", "bins up to the pair cutoff; 0: no RDF").at_least(0).fallback("0");
  rdf.integer("every", "steps between samples (the first at step `every`)")
      .at_least(1)
      .fallback("100");
  s.section("rdf", rdf, "radial distribution function");
  s.integer("dump", "steps between frames of the LAMMPS text dump dump.lammpstrj; 0: none")
      .at_least(0)
      .fallback("0");
  Schema deepmd(
      "Labelled frames for training learned potentials, written at the end as a DeePMD-kit npy "
      "system in OUTDIR/deepmd (type.raw, type_map.raw, set.NNN/{coord,box,energy,force,virial}"
      ".npy; Å, eV, eV/Å; virial Σ r ⊗ f). Needs units metal. The labels are the potential's "
      "energy, forces and virial (a thermostat's share of the forces is left out).");
  deepmd.integer("every", "steps between recorded frames; 0: none").at_least(0).fallback("0");
  deepmd.integer("first", "step of the first recorded frame (skip equilibration)")
      .at_least(0)
      .fallback("0");
  deepmd.strings("type_map", "element name of each atom type (type 1 first)").fallback("[Si]");
  deepmd.integer("set_size", "frames per set.NNN folder").at_least(1).fallback("1000");
  s.section("deepmd", deepmd, "DeePMD-kit training frames");
  s.boolean("per_atom",
            "per-atom potential energy and virial (LAMMPS compute pe/atom, and stress/atom "
            "without the kinetic part, times the volume) in the particle output as pe_atom and "
            "virial_atom (xx yy zz xy xz yz)")
      .fallback("false");
  return s;
}

}  // namespace surrox::solvers::md
