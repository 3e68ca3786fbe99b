#pragma once
// Concurrent learning of a deep potential in one command (DP-GEN's loop, which DeePMD-kit
// users run as a separate Python package): each iteration
//   1. trains an ensemble of `models` deep potentials (family deep_potential, seeds differ) on
//      the initial frames plus every frame labelled so far, and measures model 0 on held-out
//      frames;
//   2. explores: the reference MD case is run with `pair: {type: deep, models: ensemble}` at each
//      exploration temperature, recording model_devi.csv and the configurations every out_freq;
//   3. selects the frames with lo ≤ max ε_F < hi (apps/candidate_selection.hpp);
//   4. labels them with the reference case's own potential (apps/reference_labels.hpp), and
//      they join the training data of the next iteration.
// The last iteration (or one whose accurate fraction reaches `converged_accurate`) stops after
// step 3. Every finished stage leaves a result.json, so running the command again on the same
// output folder continues where it stopped (an interrupted training resumes from its
// checkpoint); raising `iterations` extends a finished loop. Under mpirun the models and the
// exploration runs are spread over the ranks, one rank each (DP-GEN's separate jobs).
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/runtime.hpp"
#include "core/schema.hpp"
#include "io/case_file.hpp"

namespace surrox::apps {

const Schema& concurrent_learning_schema();

// Runs (or continues) the loop of a config validated against concurrent_learning_schema();
// collective over runtime.comm(). Returns the figures for summary.json.
nlohmann::json run_concurrent_learning(Runtime& runtime, const io::CaseFile& config,
                                       const std::filesystem::path& output_dir);

}  // namespace surrox::apps
