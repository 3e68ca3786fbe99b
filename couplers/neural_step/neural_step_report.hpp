#pragma once
// The neural-step coupler's figures against the pure-solver run, and its files: curve.csv and
// curve.md (one row per guard tolerance and training mode: accepted fraction, speedup in wall
// time, time-mean energy error, ω RMSE), blocks.csv (accepted fraction per block of windows)
// and energy.csv (the energy at every window end of every run).
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "couplers/neural_step/neural_step_runs.hpp"

namespace surrox::couplers {

// One row of the curve: a run and its timing repeats.
struct NeuralStepRow {
  std::string label;  // "solver", "solver_perturbed", "frozen", "online"
  double tolerance = NAN;
  std::vector<double> work_s;  // per repeat
  QgRunRecord run;             // the first repeat's record (every repeat computes the same)
  const GuardedRecord* guarded = nullptr;
};

struct NeuralStepComparison {
  double mean_energy = 0,
         energy_error = 0;          // time mean over the window ends; relative to the solver's
  double rmse = 0, final_rmse = 0;  // of ω over the samples / at the last, over rms ω
  double mean_field_error = 0;      // ‖ω̄ − ω̄_solver‖ / ‖ω̄_solver‖
  double speedup = 0;               // median solver work / median work
};

NeuralStepComparison compare_to_solver(const NeuralStepRow& row, const NeuralStepRow& solver);

// Writes curve.csv, curve.md, blocks.csv and energy.csv into `dir`; returns the rows as JSON
// and the table (markdown) in "table".
nlohmann::json write_neural_step_report(const std::filesystem::path& dir,
                                        const std::vector<NeuralStepRow>& rows,
                                        const NeuralStepWindows& windows, double start_time);

}  // namespace surrox::couplers
