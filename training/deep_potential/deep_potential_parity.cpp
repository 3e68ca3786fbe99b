#include "training/deep_potential/deep_potential_parity.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "core/atomic_file.hpp"
#include "training/loss_plot.hpp"

namespace surrox::training {
namespace {

// Reads the folder's two CSV files; argv[1] is the folder.
constexpr const char* kParityScript = R"PY(
import csv, sys, math
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
folder = sys.argv[1]
energy = list(csv.DictReader(open(folder + "/parity_energy.csv")))
force = list(csv.DictReader(open(folder + "/parity_force.csv")))
fig, axes = plt.subplots(1, 2, figsize=(10, 4.6))
for ax, rows, unit, name in ((axes[0], energy, "eV/atom", "energy per atom"),
                             (axes[1], force, "eV/Å", "force components")):
    label = [float(r["label"]) for r in rows]
    model = [float(r["model"]) for r in rows]
    rmse = math.sqrt(sum((m - l) ** 2 for m, l in zip(model, label)) / max(1, len(rows)))
    ax.scatter(label, model, s=12 if len(rows) < 2000 else 3, alpha=0.5, linewidths=0)
    lo, hi = min(label + model), max(label + model)
    ax.plot([lo, hi], [lo, hi], "k-", lw=0.8)
    ax.set_xlabel(f"reference {name} ({unit})")
    ax.set_ylabel(f"model {name} ({unit})")
    ax.set_title(f"{name}: RMSE {1000 * rmse:.3g} m{unit}, {len(rows)} values")
    ax.set_aspect("equal", adjustable="datalim")
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110, format="png")
)PY";

}  // namespace

nlohmann::json write_parity(const std::filesystem::path& dir,
                            const std::vector<NamedParity>& sets) {
  std::filesystem::create_directories(dir);
  std::string energy = "system,frame,label,model\n", force = "system,row,label,model\n";
  for (const NamedParity& set : sets) {
    const auto& r = set.rows;
    for (std::size_t f = 0; f < r.energy_label.size(); ++f)
      energy += fmt::format("{},{},{:.17g},{:.17g}\n", set.system, f, r.energy_label[f],
                            r.energy_model[f]);
    for (std::size_t k = 0; k < r.force_label.size(); ++k)
      force +=
          fmt::format("{},{},{:.17g},{:.17g}\n", set.system, k, r.force_label[k], r.force_model[k]);
  }
  write_text_atomically(dir / "parity_energy.csv", energy);
  write_text_atomically(dir / "parity_force.csv", force);
  nlohmann::json outputs = {{"parity_energy_csv", (dir / "parity_energy.csv").string()},
                            {"parity_force_csv", (dir / "parity_force.csv").string()}};
  const std::string why = plot_with_python(kParityScript, dir, dir / "parity.png");
  if (why.empty())
    outputs["parity_png"] = (dir / "parity.png").string();
  else
    spdlog::warn("no parity.png: {}", why);
  return outputs;
}

}  // namespace surrox::training
