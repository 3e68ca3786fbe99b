#!/usr/bin/python3
"""Figures for docs/validation/rayleigh_benard.md, from fresh runs of the shipped cases.

Runs (skipping any run folder that already holds a summary.json):
  onset.yaml at Ra = 1650 and 1770          -> rb_onset.png (kinetic-energy growth, Ra_c)
  ra1e4_steady.yaml on 32x16, 64x32, 128x64  -> rb_convergence.png (steady Nu, observed order)
  ra1e5.yaml                                 -> rb_nusselt_ra1e5.png (Nu four ways vs time)
  ra1e6_dataset.yaml                         -> rb_ra1e6.png (buoyancy at t = 50, Nu(t))

Usage: scripts/figures/rayleigh_benard.py [--surrox build/release/apps/surrox]
                                          [--work /tmp/surrox-figures/rb] [--out docs/validation/figures]
Needs Debian's python3-matplotlib, python3-numpy and python3-h5py (scripts/bootstrap.sh).
"""
import argparse
import csv
import json
import math
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import h5py  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from surrox_runs import run_case  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
CASES = ROOT / "cases" / "rayleigh_benard"


def run(surrox, case, out, overrides=()):
    """Runs one shipped case unless its folder already has a summary; returns the summary."""
    return run_case(surrox, CASES / case, out, overrides)


def series(out):
    with open(out / "nusselt.csv") as f:
        rows = list(csv.DictReader(f))
    return {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}


def onset(surrox, work, figures):
    fig, ax = plt.subplots(figsize=(6, 4))
    rates = {}
    for ra in (1650, 1770):
        out = work / f"onset_{ra}"
        run(surrox, "onset.yaml", out, [f"solver.rayleigh={ra}"])
        s = series(out)
        t, ke = s["time"], s["kinetic_energy"]
        window = (t >= 10) & (t <= 25)
        slope = np.polyfit(t[window], np.log(ke[window]), 1)[0]
        rates[ra] = 0.5 * slope  # amplitude growth rate
        ax.semilogy(t, ke, label=f"Ra = {ra}: σ = {rates[ra]:+.2e}")
    ra_c = 1650 + (1770 - 1650) * (0 - rates[1650]) / (rates[1770] - rates[1650])
    ax.set_xlabel("t (free-fall units)")
    ax.set_ylabel("kinetic energy")
    ax.set_title(f"Linear onset: Ra_c = {ra_c:.1f} (exact 1707.76, {100 * (ra_c / 1707.76 - 1):+.2f} %)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(figures / "rb_onset.png", dpi=120)
    return {"ra_c": ra_c, "growth_1650": rates[1650], "growth_1770": rates[1770]}


def convergence(surrox, work, figures):
    grids = [(32, 16), (64, 32), (128, 64)]
    nu = []
    for nx, nz in grids:
        out = work / f"ra1e4_{nx}x{nz}"
        summary = run(surrox, "ra1e4_steady.yaml", out, [f"solver.cells=[{nx}, {nz}]", "output.vtk=false"])
        d = summary["results"]["diagnostics"]
        nu.append(d.get("nu_bottom", d.get("mean_nu_bottom")))
    order = math.log(abs(nu[0] - nu[1]) / abs(nu[1] - nu[2])) / math.log(2)
    extrapolated = nu[2] + (nu[2] - nu[1]) / (2 ** order - 1)
    h = np.array([1 / nz for _, nz in grids])
    err = np.abs(np.array(nu) - extrapolated)
    fig, ax = plt.subplots(figsize=(5, 4))
    ax.loglog(h, err, "o-", label=f"|Nu_h − Nu_extrap|, observed order {order:.2f}")
    ax.loglog(h, err[-1] * (h / h[-1]) ** 2, "k--", label="slope 2")
    ax.set_xlabel("h = 1/nz")
    ax.set_ylabel("error in steady Nu")
    ax.set_title(f"Ra = 1e4 steady rolls: Nu → {extrapolated:.4f}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(figures / "rb_convergence.png", dpi=120)
    return {"nu": nu, "order": order, "extrapolated": extrapolated}


def nusselt_ra1e5(surrox, work, figures):
    out = work / "ra1e5"
    summary = run(surrox, "ra1e5.yaml", out, ["output.vtk=false", "output.hdf5=false"])
    s = series(out)
    fig, ax = plt.subplots(figsize=(7, 4))
    for name in ("nu_bottom", "nu_top", "nu_volume", "nu_kinetic", "nu_thermal"):
        ax.plot(s["time"], s[name], lw=0.8, label=name)
    d = summary["results"]["diagnostics"]
    ax.set_ylim(0, 2 * d["mean_nu_bottom"])
    ax.set_xlabel("t")
    ax.set_ylabel("Nu")
    ax.set_title(f"Ra = 1e5: time-averaged Nu spread {100 * d['mean_nu_spread']:.2f} %")
    ax.legend(ncol=3, fontsize=8)
    fig.tight_layout()
    fig.savefig(figures / "rb_nusselt_ra1e5.png", dpi=120)
    return {k: v for k, v in d.items() if k.startswith("mean_nu")}


def dataset_ra1e6(surrox, work, figures):
    out = work / "ra1e6"
    summary = run(surrox, "ra1e6_dataset.yaml", out)
    with h5py.File(out / "fields.h5", "r") as f:
        b = np.asarray(f["fields/b"][-1]).reshape(-1)
        time = float(f["time"][-1])
        extent = f["mesh"].attrs["extent"]
    nx, nz = summary["case"]["solver"]["cells"]
    b = b.reshape(nz, nx)
    s = series(out)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 5.5), gridspec_kw={"height_ratios": [1.1, 1]})
    top.imshow(b, origin="lower", extent=[0, 4, 0, 1], cmap="RdBu_r", vmin=-0.5, vmax=0.5)
    top.set_title(f"Ra = 1e6 dataset: buoyancy b at t = {time:g} ({nx} × {nz})")
    bottom.plot(s["time"], s["nu_bottom"], lw=0.8, label="bottom plate")
    bottom.plot(s["time"], s["nu_volume"], lw=0.8, label="⟨wb⟩ volume")
    bottom.set_ylim(0, 30)
    bottom.set_xlabel("t")
    bottom.set_ylabel("Nu")
    bottom.legend()
    fig.tight_layout()
    fig.savefig(figures / "rb_ra1e6.png", dpi=120)
    return {"wall_time_s": summary["wall_time_s"], "frames": int(summary["results"]["outputs"]["writes"])}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--surrox", default=ROOT / "build" / "release" / "apps" / "surrox", type=pathlib.Path)
    parser.add_argument("--work", default=pathlib.Path("/tmp/surrox-figures/rb"), type=pathlib.Path)
    parser.add_argument("--out", default=ROOT / "docs" / "validation" / "figures", type=pathlib.Path)
    parser.add_argument("--skip-ra1e6", action="store_true", help="leave out the 80 s dataset run")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    args.out.mkdir(parents=True, exist_ok=True)
    figures = {"onset": onset(args.surrox, args.work, args.out),
               "convergence": convergence(args.surrox, args.work, args.out),
               "ra1e5": nusselt_ra1e5(args.surrox, args.work, args.out)}
    if not args.skip_ra1e6:
        figures["ra1e6"] = dataset_ra1e6(args.surrox, args.work, args.out)
    json.dump(figures, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
