#pragma once
// The outputs of an MD run besides its thermo rows, as components (LAMMPS's compute rdf with
// fix ave/time, dump atom, and DeePMD-kit's training frames): each reads the solver's state
// after the initial forces and after every step, keeps what it recorded in checkpoints, and
// writes its files at the end. Thermo stays the solver's own: it is the run's monitor and
// residual, as LAMMPS's Thermo is part of its core. The outputs' keys are in the md schema
// (md_schema.cpp: `rdf`, `dump`, `deepmd`); a factory returns nullptr when its keys turn it off.
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/case_node.hpp"
#include "core/registry.hpp"
#include "io/hdf5_checkpoint.hpp"

namespace surrox::solvers::md {

class MdSolver;

class MdOutput {
 public:
  virtual ~MdOutput() = default;
  // Outputs that run the force computation again (and put the step's forces back) run after
  // those that only read the step's state, so that what the others read is the step's own.
  virtual bool recomputes_forces() const { return false; }
  // Whether step `step`'s force computation must give energies and the virial for this output.
  virtual bool needs_energy(long step) const { return false; }
  // After the initial forces (step 0), and after step `step`'s integration. Collective.
  virtual void start(MdSolver& md) {}
  virtual void after_step(MdSolver& md, long step) = 0;
  virtual void save(io::Hdf5Checkpoint& checkpoint) const = 0;
  virtual void load(const io::Hdf5Checkpoint& checkpoint) = 0;
  // Files into output_dir (rank 0) and figures into results. Collective.
  virtual void finalize(const MdSolver& md, const std::filesystem::path& output_dir,
                        nlohmann::json& results) = 0;
};

// Factories take the md solver section and the solver as set up so far (its system and pair).
using MdOutputRegistry = Registry<MdOutput, const CaseNode&, const MdSolver&>;

// rdf, dump, deepmd.
const MdOutputRegistry& md_outputs();

}  // namespace surrox::solvers::md
