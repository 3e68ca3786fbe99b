#!/usr/bin/python3
"""Figures for docs/validation/rans.md from the run folders of scripts/validate_rans_flat_plate.sh.

  rans_flat_plate_profile.png   u+ against y+ at x = 0.97 on each grid, with u+ = y+ and the
                                log law u+ = ln(y+)/0.41 + 5.0
  rans_flat_plate_cf.png        Cf(0.97) against 1/N (N: cells in y) with TMR's SA value

Each run folder (grid_NIxNJ) holds surface.csv (Cf at the wall faces), checkpoint.h5 (the
conservative state, i fastest) and summary.json (the resolved case: the grid's spacings).

Usage: scripts/figures/rans.py [RUN_DIR (default /tmp/surrox-rans-plate)] [--out docs/validation/figures] [--print-only]
Needs Debian's python3-matplotlib, python3-numpy and python3-h5py.
"""
import csv
import json
import math
import pathlib
import sys

import h5py
import numpy as np

TMR_CF = 0.00270562  # CFL3D, 545 x 385 (FUN3D 0.00270540)
X_STATION = 0.97


def geometric_nodes(length, n, first):
    """The nodes of mesh/flat_plate_grid.cpp: n cells from `first`, constant growth, total `length`."""
    def total(r):
        return first * n if r == 1 else first * (r ** n - 1) / (r - 1)
    lo, hi = 1.0, 2.0
    while total(hi) < length:
        hi *= 2
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if total(mid) < length:
            lo = mid
        else:
            hi = mid
    r = 0.5 * (lo + hi)
    s = np.concatenate([[0.0], np.cumsum(first * r ** np.arange(n))])
    s[-1] = length
    return s


def load(run):
    summary = json.loads((run / "summary.json").read_text())
    mesh = summary["case"]["solver"]["mesh"]
    result = summary["results"]["airfoil"]
    rows = list(csv.DictReader(open(run / "surface.csv")))
    x = np.array([float(r["x_over_c"]) for r in rows])
    cf = np.array([float(r["cf"]) for r in rows])
    k = int(np.searchsorted(x, X_STATION))  # x[k-1] <= 0.97 < x[k]
    t = (X_STATION - x[k - 1]) / (x[k] - x[k - 1])
    cf097 = cf[k - 1] + t * (cf[k] - cf[k - 1])
    col = k - 1 if t < 0.5 else k
    ni = mesh["cells_upstream"] + mesh["cells_plate"]
    nj = mesh["cells_normal"]
    ys = geometric_nodes(mesh["height"], nj, mesh["wall_spacing"])
    yc = 0.5 * (ys[1:] + ys[:-1])
    u = np.array(h5py.File(run / "checkpoint.h5", "r")["rank_0/conservative"]).reshape(nj, ni, -1)
    column = u[:, col, :]
    u_tau = math.sqrt(0.5 * cf[col])  # rho_w ~ rho_inf = 1 at M 0.2
    reynolds = summary["case"]["solver"]["reynolds"]
    return dict(ni=ni, nj=nj, cf097=cf097, cycles=int(result["iterations"]),
                residual=result["final_residual"], y_plus=yc * u_tau * reynolds,
                u_plus=column[:, 1] / column[:, 0] / u_tau)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    runs_dir = pathlib.Path(args[0] if args else "/tmp/surrox-rans-plate")
    out = pathlib.Path(sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else "docs/validation/figures")
    runs = sorted((load(p) for p in runs_dir.glob("grid_*") if (p / "summary.json").exists()),
                  key=lambda r: r["nj"])
    for r in runs:
        print(f"{r['ni']} x {r['nj']}: {r['cycles']} cycles, residual {r['residual']:.2e}, "
              f"Cf(0.97) = {r['cf097']:.8f} ({100 * (r['cf097'] / TMR_CF - 1):+.3f} %)")
    if "--print-only" in sys.argv or not runs:
        return
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4.5))
    for r in runs:
        ax.semilogx(r["y_plus"], r["u_plus"], "o-", ms=3, label=f"{r['ni']} x {r['nj']}")
    yp = np.logspace(-0.5, 4, 200)
    ax.semilogx(yp[yp < 15], yp[yp < 15], "k--", label="u+ = y+")
    ax.semilogx(yp[yp > 5], np.log(yp[yp > 5]) / 0.41 + 5.0, "k:", label="ln(y+)/0.41 + 5.0")
    ax.set_xlabel("y+")
    ax.set_ylabel("u+")
    ax.set_ylim(0, 30)
    ax.set_title("Flat plate, SA-neg, x = 0.97 (Re_x = 4.85e6)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "rans_flat_plate_profile.png", dpi=110)

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([1 / r["nj"] for r in runs], [r["cf097"] for r in runs], "o-", label="surrox SA-neg")
    ax.axhline(TMR_CF, color="k", ls="--", label="TMR SA (CFL3D 545 x 385)")
    ax.axhspan(0.99 * TMR_CF, 1.01 * TMR_CF, color="0.9", label="TMR ± 1 %")
    ax.set_xlabel("1 / cells in y")
    ax.set_ylabel("Cf at x = 0.97")
    ax.set_xlim(left=0)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "rans_flat_plate_cf.png", dpi=110)


main()
