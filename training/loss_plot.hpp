#pragma once
// The training curves as a PNG: metrics.csv plotted by Debian's python3-matplotlib (installed
// by scripts/bootstrap.sh), run as a child process with the plotting script embedded here.
#include <filesystem>
#include <string>

namespace surrox::training {

// Writes `png` from `metrics_csv`; returns "" on success, else why there is no plot (no
// python3 or matplotlib): the caller reports it, training results are unaffected.
std::string plot_loss_curves(const std::filesystem::path& metrics_csv,
                             const std::filesystem::path& png);

}  // namespace surrox::training
