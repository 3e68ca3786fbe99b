#pragma once
// The implicit pseudo-time smoother of a multigrid level, and the registry that names them.
// A smoother turns the level's residual R (evaluated by the caller at the current state, with
// the face spectral radii λ, λ_v the local time steps come from) into one update U ← U + ΔU of
// the level's slab. It is built once per level and may keep work arrays of that level's shape;
// smooth() is collective over the level's slab communicator. A new smoother is a file with a
// Smoother subclass and one entry in smoother_registry.cpp; a case selects it with
// `smoother: {type: NAME, ...}`.
#include <memory>
#include <string>

#include "core/registry.hpp"

namespace surrox::io {
class Hdf5Checkpoint;
}

namespace surrox::solvers::airfoil {

struct FlowLevel;

class Smoother {
 public:
  virtual ~Smoother() = default;
  // U ← U + ΔU at local time steps Δt = CFL·V / Σ_f(½λ_f + λ_v,f); `iteration`, the solver's
  // cycle, lets a smoother keep work across cycles reproducibly (restarts included).
  virtual void smooth(FlowLevel& level, double cfl, long iteration) = 0;
  // Work kept across cycles that the next cycles read (lagged factors): into a checkpoint's
  // arrays and scalars under `prefix`, and back, so that a restart continues bit for bit. A
  // checkpoint without it, or of another shape, leaves the smoother to start afresh. Default:
  // nothing kept.
  virtual void save(io::Hdf5Checkpoint& /*checkpoint*/, const std::string& /*prefix*/) const {}
  virtual void load(const io::Hdf5Checkpoint& /*checkpoint*/, const std::string& /*prefix*/) {}
};

// Factory argument: the level the smoother will smooth (shapes, parameters, slab). The
// parameters carry the smoother's options (AirfoilParameters::smoother_options).
using SmootherRegistry = Registry<Smoother, const FlowLevel&>;
const SmootherRegistry& smoother_registry();

}  // namespace surrox::solvers::airfoil
