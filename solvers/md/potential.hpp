#pragma once
// Interatomic potentials: the interface the engine calls, and the open registry that builds
// them from a case file's `pair: {type: NAME, ...}` section. A potential adds its forces to
// System::f for owned and ghost atoms (the engine zeroes f before and folds ghost forces into
// their owners after) and, when the tally asks, its energy, virial and per-atom energy and
// virial (ForceTally). Pair styles written as kernel functions get all of that from the pair
// driver (pair_driver.hpp); others, such as a learned potential evaluated by a network,
// implement compute() themselves.
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/case_node.hpp"
#include "core/registry.hpp"
#include "solvers/md/force_tally.hpp"
#include "solvers/md/neighbor_list.hpp"

namespace surrox::io {
class Hdf5Checkpoint;
}

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
  // Adds forces, and fills `tally` as its flags ask.
  virtual void compute(System& s, const NeighborList& list, ForceTally& tally) = 0;
  // At the end of a run (collective): writes the potential's own outputs into `output_dir`
  // (rank 0) and their summary into `results`, e.g. a learned potential's model deviation.
  virtual void finalize(const std::filesystem::path& output_dir, int rank,
                        nlohmann::json& results) {}
  // What the potential keeps across steps (its records, e.g. model-deviation rows) into the
  // run's checkpoint and back; a restart calls load_state before its first force evaluation.
  virtual void save_state(io::Hdf5Checkpoint& /*checkpoint*/) const {}
  virtual void load_state(const io::Hdf5Checkpoint& /*checkpoint*/) {}
};

// Factory arguments: the pair section and the units name ("lj", "metal").
using PotentialRegistry = Registry<Potential, const CaseNode&, const std::string&>;

// The potentials known so far: the built-in ones (lj/cut, sw) and every one added with
// register_potential. The md solver's case-file schema reads this registry when a case is
// validated, so a potential registered before a case is loaded is valid in it and listed in
// the error for an unknown name.
const PotentialRegistry& potential_registry();

// Adds a potential under `name` (Error if the name is taken). How a library outside
// surrox_solvers (e.g. a torch-side learned potential) makes itself available: it calls this
// from its own registration function before cases are loaded.
void register_potential(const std::string& name, PotentialRegistry::Factory make, Schema schema,
                        std::string doc);

}  // namespace surrox::solvers::md
