#include "solvers/md/exploration_run.hpp"

namespace surrox::solvers::md {

void add_exploration_run(const ExplorationRun& run, io::CaseOverrides& overrides) {
  std::vector<std::string> models;
  for (const std::filesystem::path& m : run.models)
    models.push_back(std::filesystem::absolute(m).string());
  overrides.source("exploration run")
      .section("solver.pair")
      .string("solver.pair.type", "deep")
      .strings("solver.pair.models", models)
      .integer("solver.pair.out_freq", run.out_freq)
      .integer("solver.deepmd.every", run.out_freq)
      .integer("solver.deepmd.first", 0)
      .integer("solver.steps", run.steps)
      .real("solver.integrator.temperature", run.temperature)
      .real("solver.velocity.temperature", run.temperature)
      .integer("solver.integrator.seed", run.thermostat_seed)
      .integer("solver.velocity.seed", run.velocity_seed)
      .boolean("output.vtk", false)
      .boolean("output.hdf5", false);
  if (run.pressure) {
    overrides.string("solver.barostat.style", "c_rescale")
        .real("solver.barostat.pressure", *run.pressure)
        .integer("solver.barostat.seed", run.barostat_seed);
  }
}

}  // namespace surrox::solvers::md
