#!/usr/bin/python3
"""The neural-step coupler figure for docs/validation/qg.md, from `surrox run` output.

Reads RUN/curve.csv and RUN/blocks.csv (written by the neural_step coupler, e.g.
`surrox run cases/qg/neural_step.yaml -o RUN`) and draws qg_neural_step.png:
  left:   accepted fraction and wall-time speedup against the guard's residual tolerance,
          frozen and online-trained network;
  middle: time-mean energy error against speedup (each point a tolerance), with the ±5 % band
          and the pure solver from a 1e-8 perturbation (the chaos floor);
  right:  accepted fraction per block of windows for the online runs (does training help?),
          and those of LINEAR (a second run, e.g. the linear problem) when given.

Usage: scripts/figures/qg_neural_step.py RUN [--linear RUN2] [--out docs/validation/figures]
Needs Debian's python3-matplotlib.
"""
import argparse
import csv
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
STYLE = {"frozen": ("C0", "o-"), "online": ("C3", "s-")}


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("run", type=pathlib.Path)
    p.add_argument("--linear", type=pathlib.Path)
    p.add_argument("--out", type=pathlib.Path, default=ROOT / "docs/validation/figures")
    a = p.parse_args()
    curve = read_csv(a.run / "curve.csv")
    fig, ax = plt.subplots(1, 3, figsize=(15, 4.2))
    for label, (colour, style) in STYLE.items():
        rows = [r for r in curve if r["run"] == label]
        if not rows:
            continue
        tol = [float(r["tolerance"]) for r in rows]
        ax[0].plot(tol, [float(r["accepted_fraction"]) for r in rows], style, color=colour,
                   label=f"{label}: accepted fraction")
        ax[0].plot(tol, [float(r["speedup"]) for r in rows], style, color=colour, alpha=0.5,
                   mfc="none", label=f"{label}: speedup")
        ax[1].plot([float(r["speedup"]) for r in rows],
                   [100 * float(r["energy_error"]) for r in rows], style[0], color=colour,
                   label=label)
        for r in rows:
            ax[1].annotate(f"{float(r['tolerance']):g}",
                           (float(r["speedup"]), 100 * float(r["energy_error"])),
                           textcoords="offset points", xytext=(4, 4), fontsize=7, color=colour)
    ax[0].axhline(2, color="0.5", lw=0.8, ls=":")
    ax[0].set_xlabel("residual tolerance")
    ax[0].set_ylabel("accepted fraction / speedup")
    ax[0].set_title("acceptance and wall-time speedup")
    ax[0].legend(fontsize=7)
    floor = [r for r in curve if r["run"] == "solver_perturbed"]
    if floor:
        ax[1].plot([float(floor[0]["speedup"])], [100 * float(floor[0]["energy_error"])], "k^",
                   label="solver, 1e-8 perturbation")
    ax[1].axhspan(-5, 5, color="C2", alpha=0.12, label="±5 %")
    ax[1].axvline(2, color="0.5", lw=0.8, ls=":")
    ax[1].set_xlabel("speedup over the pure solver (wall time)")
    ax[1].set_ylabel("time-mean energy error (%)")
    ax[1].set_title("error against cost (labels: tolerance)")
    ax[1].legend(fontsize=7)
    runs = [(a.run, "")] + ([(a.linear, "linear problem, ")] if a.linear else [])
    for n, (run, prefix) in enumerate(runs):
        blocks = [r for r in read_csv(run / "blocks.csv") if r["run"] == "online"]
        for i, tol in enumerate(sorted({r["tolerance"] for r in blocks}, key=float)):
            rows = [r for r in blocks if r["tolerance"] == tol]
            ax[2].plot([int(r["block"]) + 1 for r in rows],
                       [float(r["accepted_fraction"]) for r in rows],
                       "s-" if n == 0 else "o--", color=f"C{i + 3 * n}",
                       label=f"{prefix}tolerance {float(tol):g}")
    ax[2].set_xlabel("block of windows")
    ax[2].set_ylabel("accepted fraction")
    ax[2].set_title("online training: accepted fraction over the run")
    ax[2].legend(fontsize=7)
    fig.tight_layout()
    a.out.mkdir(parents=True, exist_ok=True)
    fig.savefig(a.out / "qg_neural_step.png", dpi=110)
    print(a.out / "qg_neural_step.png")


if __name__ == "__main__":
    main()
