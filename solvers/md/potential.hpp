#pragma once
// Interatomic potentials: the interface the engine calls, and the registry that builds them
// from a case file's `pair: {type: lj/cut | sw, ...}` section. A potential adds its forces to
// System::f for owned and ghost atoms (the engine zeroes f before, folds ghost forces into
// their owners after, and takes the virial as Σ x·f over owned and ghost atoms); the physics
// of each potential is a small inline function, the neighbour loops are generic.
#include <memory>

#include "core/case_node.hpp"
#include "core/registry.hpp"
#include "solvers/md/neighbor_list.hpp"

namespace surrox::solvers::md {

class Potential {
 public:
  virtual ~Potential() = default;
  // Largest interaction cutoff (length units).
  virtual double cutoff() const = 0;
  // true: a half list with Newton's third law; false: a full list.
  virtual bool half_list() const = 0;
  // Checks the potential covers the system's atom types (InputError otherwise).
  virtual void check(const System& s) const {}
  // Adds forces; returns the total potential energy when `energy` is true (else 0).
  virtual double compute(System& s, const NeighborList& list, bool energy) = 0;
};

// Factory arguments: the pair section and the units name ("lj", "metal").
using PotentialRegistry = Registry<Potential, const CaseNode&, const std::string&>;
const PotentialRegistry& potential_registry();

}  // namespace surrox::solvers::md
