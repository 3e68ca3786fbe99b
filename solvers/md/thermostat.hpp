#pragma once
// Thermostats of the velocity-Verlet integrator (LAMMPS fix langevin, fix nvt), one file each
// behind a registry keyed by the case's `integrator.style`: `nve` (none), `langevin`
// (thermostat_langevin.cpp), `nose_hoover` (thermostat_nose_hoover.cpp). A thermostat acts at
// two points of a step: a half step on the velocities at its start and at its end (Nosé–Hoover)
// and a share of the forces after the potential's (Langevin). What it carries across steps goes
// into the run's checkpoint.
#include <mpi.h>

#include <memory>

#include "core/case_node.hpp"
#include "core/registry.hpp"
#include "solvers/md/md_system.hpp"
#include "solvers/solver.hpp"

namespace surrox::io {
class Hdf5Checkpoint;
}

namespace surrox::solvers::md {

// What a thermostat knows of the run.
struct ThermostatContext {
  Units units;
  double dt = 0;
  double dof = 0;   // degrees of freedom (3N − 3)
  long natoms = 0;  // over all ranks
  MPI_Comm comm = MPI_COMM_SELF;
};

class Thermostat {
 public:
  virtual ~Thermostat() = default;
  // Whether it holds a temperature (a barostat needs one); `nve` does not.
  virtual bool holds_temperature() const { return true; }
  // At the start of a step, before the first half-kick, and at its end, after the second.
  virtual void half_step(System& /*s*/) {}
  // Adds its share of the step's forces (after the potential's, before the second half-kick).
  virtual void add_forces(System& /*s*/, long /*step*/) {}
  virtual void save_state(io::Hdf5Checkpoint& /*checkpoint*/) const {}
  virtual void load_state(const io::Hdf5Checkpoint& /*checkpoint*/) {}
  // Adds its own figures to the solver's diagnostics (which hold thermo's e_total).
  virtual void add_diagnostics(Diagnostics& /*d*/) const {}
};

// Factory arguments: the `integrator` section and the run.
using ThermostatRegistry = Registry<Thermostat, const CaseNode&, const ThermostatContext&>;
const ThermostatRegistry& thermostat_registry();

// Σ m v² over the owned atoms of every rank of `comm` (collective).
double sum_mv2(const System& s, MPI_Comm comm);

}  // namespace surrox::solvers::md
