#include "solvers/md/register.hpp"

#include "solvers/md/md_solver.hpp"
#include "solvers/md/pair_lj_cut.hpp"
#include "solvers/md/pair_sw.hpp"

namespace surrox::solvers::md {

const PotentialRegistry& potential_registry() {
  static const PotentialRegistry potentials = [] {
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

void register_solvers(SolverRegistry& registry) {
  registry.add("md", {[] { return std::make_unique<MdSolver>(); }, MdSolver::schema(),
                      "molecular dynamics (Lennard-Jones, Stillinger–Weber) with LAMMPS parity"});
}

}  // namespace surrox::solvers::md
