#include "training/loss_plot.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>

#include "core/atomic_file.hpp"

namespace surrox::training {
namespace {

constexpr const char* kScript = R"PY(
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
rows = list(csv.DictReader(open(sys.argv[1])))
epoch = [int(r["epoch"]) for r in rows]
fig, ax = plt.subplots(figsize=(6, 4))
ax.semilogy(epoch, [float(r["train_loss"]) for r in rows], label="training")
valid = [float(r["validation_loss"]) for r in rows]
if all(v == v for v in valid):
    ax.semilogy(epoch, valid, label="validation")
ax.set_xlabel("epoch")
ax.set_ylabel("loss (normalised)")
ax.grid(True, which="both", alpha=0.3)
ax.legend()
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110, format="png")
)PY";

}  // namespace

std::string plot_with_python(const char* script, const std::filesystem::path& input,
                             const std::filesystem::path& png) {
  const char* python = "/usr/bin/python3";
  if (access(python, X_OK) != 0) return "no /usr/bin/python3";
  AtomicFile file(png);
  const std::string command =
      std::string(python) + " - '" + input.string() + "' '" + file.temporary().string() + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "w");
  if (!pipe) return "cannot start python3";
  std::fputs(script, pipe);
  const int status = pclose(pipe);
  if (status != 0 || !std::filesystem::exists(file.temporary()))
    return "python3 could not plot (is python3-matplotlib installed?)";
  file.commit();
  return "";
}

std::string plot_loss_curves(const std::filesystem::path& metrics_csv,
                             const std::filesystem::path& png) {
  return plot_with_python(kScript, metrics_csv, png);
}

void record_training_outputs(const std::filesystem::path& output_dir, nlohmann::json& results) {
  results["outputs"] = {{"model", (output_dir / "model.pt").string()},
                        {"metrics_csv", (output_dir / "metrics.csv").string()},
                        {"checkpoint", (output_dir / "checkpoint.pt").string()}};
  const std::string why = plot_loss_curves(output_dir / "metrics.csv", output_dir / "loss.png");
  if (why.empty()) {
    results["outputs"]["loss_png"] = (output_dir / "loss.png").string();
  } else {
    spdlog::warn("no loss.png: {}", why);
    results["outputs"]["loss_png_missing"] = why;
  }
}

}  // namespace surrox::training
