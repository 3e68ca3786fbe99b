#pragma once
// One exploration run of concurrent learning (DP-GEN's model_devi stage) on the MD engine:
// the reference MD case driven by an ensemble of deep potentials at one temperature (and
// pressure), writing the ensemble's force deviation and a DeePMD recording every `out_freq`
// steps from step 0, so that row r of model_devi.csv and frame r of OUTDIR/deepmd are the same
// step. Typed: the values go into the case as they are, not through formatted --set text.
#include <filesystem>
#include <optional>
#include <vector>

#include "io/case_file.hpp"

namespace surrox::solvers::md {

struct ExplorationRun {
  std::vector<std::filesystem::path> models;  // the ensemble's model files (made absolute)
  long out_freq = 1;                          // steps between deviation rows and frames
  long steps = 0;
  double temperature = 0;          // K: the thermostat's and the initial velocities'
  std::optional<double> pressure;  // bar: a c_rescale barostat; none keeps the reference's
  long thermostat_seed = 0, velocity_seed = 0, barostat_seed = 0;
};

// Appends the typed values that make the reference case this run: solver.pair (type deep with
// the models and out_freq, replacing the reference's pair), solver.deepmd.every/first,
// solver.steps, the thermostat's and velocities' temperature and seed, the barostat when a
// pressure is given, and output.vtk/hdf5 off (the run's files are the deviation and frames).
// The user's own overrides of the run go after these, so that they win.
void add_exploration_run(const ExplorationRun& run, io::CaseOverrides& overrides);

}  // namespace surrox::solvers::md
