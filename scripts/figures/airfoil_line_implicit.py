#!/usr/bin/python3
"""Residual histories of the default airfoil cases, LU-SGS against the line-implicit smoother
(docs/validation/airfoil.md, "Line-implicit smoothing"), from the monitor.csv of runs made with
  build/release/apps/surrox run cases/airfoil/CASE.yaml -o RUNS/CASE_line
  build/release/apps/surrox run cases/airfoil/CASE.yaml -o RUNS/CASE_lusgs \
      --set 'solver.smoother={type: lusgs}'
for CASE in naca0012_euler, joukowski_euler, naca0012_laminar.

Usage: scripts/figures/airfoil_line_implicit.py RUNS [--out docs/validation/figures]
Needs Debian's python3-matplotlib.
"""
import argparse
import csv
import json
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

CASES = [("naca0012_euler", "NACA 0012 Euler"), ("joukowski_euler", "Joukowski Euler"),
         ("naca0012_laminar", "NACA 0012 laminar")]


def history(folder):
    with open(folder / "monitor.csv") as f:
        rows = list(csv.DictReader(f))
    return [int(r["step"]) for r in rows], [float(r["residual"]) for r in rows]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("runs", type=pathlib.Path)
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("docs/validation/figures"))
    args = parser.parse_args()
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), sharey=True)
    for ax, (case, title) in zip(axes, CASES):
        for smoother, style in (("lusgs", "--"), ("line", "-")):
            folder = args.runs / f"{case}_{smoother}"
            steps, residual = history(folder)
            with open(folder / "summary.json") as f:
                cycles = int(json.load(f)["results"]["airfoil"]["iterations"])
            label = "LU-SGS (wall_mirror 2)" if smoother == "lusgs" else "line_implicit"
            ax.semilogy(steps, residual, style, label=f"{label}: {cycles} cycles")
        ax.axhline(1e-8, color="grey", lw=0.5)
        ax.set_title(title + ", 256 × 128")
        ax.set_xlabel("multigrid cycle")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=8)
    axes[0].set_ylabel("density residual / first")
    fig.tight_layout()
    fig.savefig(args.out / "airfoil_line_implicit_residuals.png", dpi=110)


if __name__ == "__main__":
    main()
