"""Figures of scripts/super_resolution.sh from `surrox evaluate`'s CSV outputs.

OUT/snapshot.png: b and w at one frame between two low-res frames, as truth, low-res input
(nearest low-res node), trilinear interpolation and the model. OUT/error_vs_time.png: NMAE of the
model and of trilinear interpolation (mean over p, b, u, w) against time.
Usage: python3 scripts/figures/super_resolution.py OUT
"""
import csv
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def main(out):
    ev = out / "evaluate"
    rows = list(csv.DictReader(open(ev / "snapshot.csv")))
    z = np.array([int(r["z_index"]) for r in rows])
    x = np.array([int(r["x_index"]) for r in rows])
    nz, nx = z.max() - z.min() + 1, x.max() - x.min() + 1
    results = json.load(open(ev / "summary.json"))["results"]
    fig, axes = plt.subplots(4, 2, figsize=(12, 7), constrained_layout=True)
    for j, channel in enumerate(["b", "w"]):
        truth = np.array([float(r["truth_" + channel]) for r in rows])
        lim = np.abs(truth).max()
        for i, kind in enumerate(["truth", "lowres", "trilinear", "model"]):
            image = np.full((nz, nx), np.nan)
            image[z - z.min(), x - x.min()] = [float(r[kind + "_" + channel]) for r in rows]
            ax = axes[i, j]
            ax.imshow(image, origin="lower", cmap="RdBu_r", vmin=-lim, vmax=lim, aspect="equal")
            label = kind
            if kind in ("trilinear", "model"):
                label += " (NMAE of %s over the run: %.3f)" % (channel, results[kind][channel]["nmae"])
            ax.set_title("%s: %s" % (channel, label), fontsize=9)
            ax.set_xticks([])
            ax.set_yticks([])
    fig.suptitle("held-out seed, frame %d" % results.get("snapshot_frame", -1))
    fig.savefig(out / "snapshot.png", dpi=120)

    rows = list(csv.DictReader(open(ev / "error_vs_time.csv")))
    t = [float(r["time"]) for r in rows]
    fig, ax = plt.subplots(figsize=(6, 3.5), constrained_layout=True)
    ax.plot(t, [float(r["nmae_model"]) for r in rows], label="MeshfreeFlowNet")
    ax.plot(t, [float(r["nmae_trilinear"]) for r in rows], label="trilinear")
    ax.set_xlabel("t (free-fall times)")
    ax.set_ylabel("Σ|error| / Σ|truth| (p, b, u, w)")
    ax.legend()
    fig.savefig(out / "error_vs_time.png", dpi=120)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
