#include "solvers/md/pair_lj_cut.hpp"
#include "solvers/md/pair_sw.hpp"
#include "solvers/md/potential.hpp"

namespace surrox::solvers::md {
namespace {

PotentialRegistry& registry() {
  static PotentialRegistry potentials = [] {
    PotentialRegistry r("pair style");
    r.add("lj/cut", {[](const CaseNode& c, const std::string& units) {
                       return std::make_unique<PairLjCut>(c, units);
                     },
                     PairLjCut::schema(), "Lennard-Jones 12-6 with a cutoff (LAMMPS lj/cut)"});
    r.add("sw", {[](const CaseNode& c, const std::string& units) {
                   return std::make_unique<PairSw>(c, units);
                 },
                 PairSw::schema(), "Stillinger–Weber three-body potential (LAMMPS sw, .sw files)"});
    return r;
  }();
  return potentials;
}

}  // namespace

const PotentialRegistry& potential_registry() { return registry(); }

void register_potential(const std::string& name, PotentialRegistry::Factory make, Schema schema,
                        std::string doc) {
  registry().add(name, {std::move(make), std::move(schema), std::move(doc)});
}

}  // namespace surrox::solvers::md
