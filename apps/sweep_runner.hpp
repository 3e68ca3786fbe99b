#pragma once
// Parameter sweeps: a case file whose `sweep` section lists values for some of its keys is a
// family of cases. `surrox run` expands it (product or zip), checks every case before running
// any, spreads the cases over the MPI ranks (each case runs on one rank), skips cases an
// earlier, interrupted run already finished, and merges the final states into one sweep
// dataset (io/hdf5_sweep.hpp).
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/runtime.hpp"
#include "io/case_file.hpp"

namespace surrox::apps {

// One point of a sweep: its name ("case_0003") and the overrides that make it.
struct SweepPoint {
  std::string name;
  std::map<std::string, std::string> values;   // key path → YAML text of the value
  std::vector<std::string> overrides() const;  // "key.path=value"
};

// True when the case has a sweep section with values.
bool is_sweep(const io::CaseFile& case_file);

// The points of the case's sweep section (InputError at sweep.values for zip lists of
// different lengths).
std::vector<SweepPoint> expand_sweep(const io::CaseFile& case_file);

struct SweepOptions {
  std::filesystem::path case_path;
  std::vector<std::string> overrides;  // the command line's --set, applied before each point's
  std::filesystem::path output_dir;
};

// Runs every point (on its rank), then merges on rank 0. Returns the figures for
// summary.json's results.
nlohmann::json run_sweep(Runtime& runtime, const io::CaseFile& case_file,
                         const SweepOptions& options);

}  // namespace surrox::apps
