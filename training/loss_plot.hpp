#pragma once
// PNG figures drawn by Debian's python3-matplotlib (installed by scripts/bootstrap.sh), run as
// a child process with the plotting script embedded in the caller: the training curves here,
// and whatever other figure a family writes through plot_with_python.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace surrox::training {

// Writes `png` from `metrics_csv`; returns "" on success, else why there is no plot (no
// python3 or matplotlib): the caller reports it, training results are unaffected.
std::string plot_loss_curves(const std::filesystem::path& metrics_csv,
                             const std::filesystem::path& png);

// results["outputs"] of a training run in `output_dir` (rank 0, after model.pt is written):
// model.pt, metrics.csv, checkpoint.pt, and loss.png drawn here from metrics.csv, or
// loss_png_missing saying why not (a warning, not an error).
void record_training_outputs(const std::filesystem::path& output_dir, nlohmann::json& results);

// Runs `script` as `python3 - INPUT TMP_PNG` and renames TMP_PNG to `png` once it exists;
// returns "" on success, else why there is no figure.
std::string plot_with_python(const char* script, const std::filesystem::path& input,
                             const std::filesystem::path& png);

}  // namespace surrox::training
