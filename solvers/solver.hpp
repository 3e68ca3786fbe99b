#pragma once
// The interface every solver implements, and the registry that builds solvers by name from
// a case file's `solver: {type: ...}` section. No LibTorch here or below.
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/case_node.hpp"
#include "core/field_set.hpp"
#include "core/registry.hpp"
#include "core/runtime.hpp"
#include "io/mesh_data.hpp"

namespace surrox::io {
class Hdf5Checkpoint;
}

namespace surrox::solvers {

struct StepReport {
  long step = 0;    // steps taken so far
  double time = 0;  // simulated time after the step
  double dt = 0;    // the step just taken
};

using Diagnostics = std::map<std::string, double>;

class Solver {
 public:
  virtual ~Solver() = default;

  // Reads the solver's case-file section (already validated against its schema).
  virtual void initialize(const CaseNode& config, Runtime& runtime) = 0;
  // One time step or pseudo-iteration.
  virtual StepReport advance() = 0;
  // The driver's next output time: a solver with adaptive steps shortens the step that would
  // pass it, so outputs land exactly on their times. Fixed-step solvers may ignore it.
  virtual void limit_step_to(double time) {}
  virtual bool finished() const = 0;
  // Fraction of the run done, in [0, 1], for progress reports.
  virtual double progress() const = 0;
  // Convergence or physics residual; non-finite means the run diverged.
  virtual double residual() const = 0;
  virtual double time() const = 0;
  virtual long step() const = 0;
  // Named fields of the current state, shared with the solver (no copy).
  virtual FieldSet& state() = 0;
  // Figures users quote (name → value): errors, energies, Nusselt numbers, Cl, Cd, ...
  virtual Diagnostics diagnostics() const = 0;
  // This rank's piece of the mesh with the current fields as host arrays, for VTK and HDF5.
  virtual io::MeshData output_mesh() const = 0;

  // Cheap figures recorded every `output.monitor_interval` steps into monitor.csv (thermo
  // output for MD, Nu(t) for convection). Same keys at every call.
  virtual Diagnostics monitor() const { return {}; }
  // Wall seconds spent inside advance() by phase ("force", "neighbor", "pressure", ...).
  virtual std::map<std::string, double> phase_times() const { return {}; }

  // Restart: save_state writes everything an exact continuation needs (bitwise on the same
  // number of ranks); load_state, called after initialize(), puts it back.
  virtual bool supports_restart() const { return false; }
  virtual void save_state(io::Hdf5Checkpoint& checkpoint) const;
  virtual void load_state(const io::Hdf5Checkpoint& checkpoint);

  // Called once after the last step: write solver-specific files into output_dir and add
  // figures to summary.json's results (time averages, parity tables, ...).
  virtual void finalize(const std::filesystem::path& output_dir, nlohmann::json& results) {}
};

using SolverRegistry = Registry<Solver>;

// The solver registry, filled on first use by register_all().
const SolverRegistry& registry();

}  // namespace surrox::solvers
