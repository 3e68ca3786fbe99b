#!/usr/bin/python3
"""Figures of docs/validation/openfoam_airfoil.md from scripts/openfoam_airfoil.sh's OUT:
  OUT/errors.png  median relative L2 error over the held-out cases per channel: the model, the
                  baselines of `surrox evaluate` (nearest case, inverse-distance interpolation of
                  3, both on U/|U| and p/|U|² with scale_outputs) and the α-only similarity
                  interpolation (scripts/openfoam_airfoil.py similarity);
  OUT/fields.png  one held-out case near the airfoil: simpleFoam's U_x/|U| and p/|U|², the
                  model's (surrox predict) and the difference.
Copies both to --out (default docs/validation/figures) as openfoam_airfoil_*.png.

Usage: scripts/figures/openfoam_airfoil.py OUT [--out docs/validation/figures] [--case case_23]
"""
import csv
import json
import pathlib
import shutil
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.tri as mtri  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import openfoam_airfoil as oa  # noqa: E402

run = pathlib.Path(sys.argv[1])
dest = pathlib.Path(sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else "docs/validation/figures")
shown = sys.argv[sys.argv.index("--case") + 1] if "--case" in sys.argv else "case_23"
channels = ["U[0]", "U[1]", "p", "nut", "nuTilda"]
# The tutorial's airfoil (its `walls` patch) spans x −17.5 … 17.5 m, y −2.6 … 3.7 m in a
# far field of radius ~237 m: the window around it and its wake.
WINDOW = ((-30.0, 60.0), (-20.0, 20.0))


def errors_figure():
    summary = json.loads((run / "evaluate/summary.json").read_text())["results"]["baselines"]
    similarity = {}
    with open(run / "similarity_baseline.csv") as f:
        for row in csv.DictReader(f):
            similarity.setdefault(row["channel"], []).append(float(row["relative_l2"]))
    series = {
        "model": [summary["model_median"][c] for c in channels],
        "nearest case": [summary["nearest_case_median"][c] for c in channels],
        "idw3 (α, |U|)": [summary["idw3_median"][c] for c in channels],
        "idw3 (α only)": [statistics.median(similarity[c]) for c in channels],
    }
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.2
    for k, (label, values) in enumerate(series.items()):
        ax.bar([i + (k - 1.5) * width for i in range(len(channels))], values, width, label=label)
    ax.set_xticks(range(len(channels)), ["$U_x$", "$U_y$", "$p$", r"$\nu_t$", r"$\tilde\nu$"])
    ax.set_yscale("log")
    ax.set_ylabel("median relative L2, 4 held-out cases")
    ax.legend(fontsize=8)
    ax.set_title("OpenFOAM airFoil2D: model and baselines (speed scaled out)")
    fig.tight_layout()
    fig.savefig(run / "errors.png", dpi=120)


def fields_figure():
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy

    reader = vtk.vtkXMLUnstructuredGridReader()
    reader.SetFileName(str(run / "warm" / f"{shown}.model" / "prediction.vtu"))
    reader.Update()
    grid = reader.GetOutput()
    centres = vtk.vtkCellCenters()
    centres.SetInputData(grid)
    centres.Update()
    xy = vtk_to_numpy(centres.GetOutput().GetPoints().GetData())[:, :2]
    predicted_u = vtk_to_numpy(grid.GetCellData().GetArray("U"))
    predicted_p = vtk_to_numpy(grid.GetCellData().GetArray("p"))
    case = run / "cases" / shown
    time = oa.latest_time(str(case))
    truth_u = oa.read_internal(f"{case}/{time}/U", 3)
    truth_p = oa.read_internal(f"{case}/{time}/p", 1)
    design = {r["name"]: r for r in oa.design(str(run))}
    speed = float(design[shown]["speed"])
    rows = [
        ("$U_x/|U|$", [u[0] / speed for u in truth_u], [u[0] / speed for u in predicted_u]),
        ("$p/|U|^2$", [p[0] / speed**2 for p in truth_p], [p / speed**2 for p in predicted_p]),
    ]
    near = [k for k, (x, y) in enumerate(xy) if WINDOW[0][0] - 10 < x < WINDOW[0][1] + 10 and WINDOW[1][0] - 10 < y < WINDOW[1][1] + 10]
    xy = xy[near]
    rows = [(name, [truth[k] for k in near], [model[k] for k in near]) for name, truth, model in rows]
    triangulation = mtri.Triangulation(xy[:, 0], xy[:, 1])
    fig, axes = plt.subplots(2, 3, figsize=(13, 6.5))
    for r, (name, truth, model) in enumerate(rows):
        low, high = min(truth), max(truth)
        for c, (title, values) in enumerate([("simpleFoam", truth), ("model", model)]):
            m = axes[r][c].tricontourf(triangulation, values, levels=40, vmin=low, vmax=high, cmap="viridis")
            fig.colorbar(m, ax=axes[r][c])
            axes[r][c].set_title(f"{title}: {name}")
        diff = [a - b for a, b in zip(model, truth)]
        bound = max(abs(d) for d in diff)
        m = axes[r][2].tricontourf(triangulation, diff, levels=[bound * (k / 20 - 1) for k in range(41)], cmap="RdBu_r")
        fig.colorbar(m, ax=axes[r][2])
        axes[r][2].set_title(f"model − simpleFoam: {name}")
    for ax in axes.flat:
        ax.set_xlim(*WINDOW[0])
        ax.set_ylim(*WINDOW[1])
        ax.set_aspect("equal")
    a = float(design[shown]["alpha"])
    fig.suptitle(f"held-out {shown}: α = {a:.2f}°, |U| = {speed:.2f} m/s")
    fig.tight_layout()
    fig.savefig(run / "fields.png", dpi=110)


errors_figure()
fields_figure()
dest.mkdir(parents=True, exist_ok=True)
for name in ("errors", "fields"):
    shutil.copy(run / f"{name}.png", dest / f"openfoam_airfoil_{name}.png")
print(f"openfoam_airfoil figures: {run}/errors.png, {run}/fields.png → {dest}")
