#pragma once
// The interface every solver implements, and the registry that builds solvers by name from
// a case file's `solver: {type: ...}` section. No LibTorch here or below.
#include <map>
#include <memory>
#include <string>

#include "core/case_node.hpp"
#include "core/field_set.hpp"
#include "core/registry.hpp"
#include "core/runtime.hpp"
#include "io/mesh_data.hpp"

namespace surrox::solvers {

struct StepReport {
  long step = 0;     // steps taken so far
  double time = 0;   // simulated time after the step
  double dt = 0;     // the step just taken
};

using Diagnostics = std::map<std::string, double>;

class Solver {
 public:
  virtual ~Solver() = default;

  // Reads the solver's case-file section (already validated against its schema).
  virtual void initialize(const CaseNode& config, Runtime& runtime) = 0;
  // One time step or pseudo-iteration.
  virtual StepReport advance() = 0;
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
};

using SolverRegistry = Registry<Solver>;

// The solver registry, filled on first use by register_all().
const SolverRegistry& registry();

}  // namespace surrox::solvers
