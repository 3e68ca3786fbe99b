#pragma once
// Concurrent learning's explorations in LAMMPS (exploration.engine: lammps), DP-GEN's way: the
// user's LAMMPS input is a template run by surrox-lammps (pair_style surrox/deep) after a
// header that defines its variables, and what it leaves (DeePMD-kit's md.out and a LAMMPS text
// dump) becomes what surrox's own engine leaves for the loop: model_devi.csv and a DeePMD
// system of the frames (coordinates and boxes) under deepmd/, row r of one being frame r of the
// other.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace surrox::apps {

// One exploration: the variables the template reads are ${models} (the ensemble's files, model
// 0 first, space-separated), ${out_freq}, ${steps}, ${temp}, ${seed} and, at constant pressure,
// ${press} (bar).
struct LammpsExplorationRun {
  std::filesystem::path input_template;
  std::vector<std::filesystem::path> models;
  std::vector<std::string> type_map;  // element of each LAMMPS atom type (type 1 first)
  long out_freq = 10, steps = 1000, seed = 1;
  double temperature = 300;
  std::optional<double> pressure;
  std::filesystem::path dir;  // created; in.explore, log.lammps, md.out, traj.dump live here
};

// Runs it and converts its outputs (Error naming the file for a failed run or output that does
// not match: a missing md.out or dump, frames that are not every out_freq steps from 0).
nlohmann::json run_lammps_exploration(const LammpsExplorationRun& run);

// What the template must hold for the conversion (checked before any run): a surrox/deep pair
// style that writes md.out every ${out_freq} steps and a dump of id type x y z every ${out_freq}
// steps to traj.dump. Returns the problems found (empty: fine).
std::vector<std::string> check_lammps_template(const std::string& text);

}  // namespace surrox::apps
