#!/usr/bin/env python3
"""Figures and numbers of scripts/deep_potential_lammps.sh: OUT/lammps_checks.json and .png.

Held-out errors (surrox evaluate), the training data's density range, and the LAMMPS NPT runs at
1 bar with the model and with Stillinger-Weber: densities (mean, block standard error over 5
blocks) and RDFs (compute rdf, averaged over the production run).
"""
import glob
import json
import math
import os
import sys

import numpy as np

MASS_SI = 28.0855  # g/mol
AVOGADRO = 6.02214076e23


def find(node, key):
    if isinstance(node, dict):
        if key in node:
            return node[key]
        for v in node.values():
            r = find(v, key)
            if r is not None:
                return r
    return None


def density_range(out):
    values = []
    for box in glob.glob(os.path.join(out, "ref", "*", "deepmd", "set.000", "box.npy")):
        if os.path.basename(os.path.dirname(os.path.dirname(os.path.dirname(box)))).endswith("h"):
            continue  # held out
        b = np.load(box).reshape(-1, 3, 3)
        atoms = len(open(os.path.join(os.path.dirname(os.path.dirname(box)), "type.raw")).read().split())
        volume = np.abs(np.linalg.det(b))  # A^3
        values.extend(atoms * MASS_SI / AVOGADRO / (volume * 1e-24))
    return (min(values), max(values)) if values else (math.nan, math.nan)


def density(run):
    path = os.path.join(run, "density.out")
    if os.path.exists(os.path.join(run, "failed")) or not os.path.exists(path):
        return None
    rho = np.loadtxt(path, comments="#")[:, 1]
    blocks = np.array_split(rho, 5)
    means = np.array([b.mean() for b in blocks])
    return {"mean": float(rho.mean()), "block_error": float(means.std(ddof=1) / math.sqrt(len(means))),
            "samples": int(len(rho))}


def rdf(run):
    path = os.path.join(run, "rdf.out")
    if not os.path.exists(path):
        return None
    rows = [l.split() for l in open(path) if l.strip() and not l.startswith("#")]
    last, block = [], []
    for r in rows:
        if len(r) == 2:  # "timestep nrows" starts a block
            if block:
                last = block
            block = []
        else:
            block.append([float(x) for x in r])
    last = block or last
    a = np.array(last)
    return a[:, 1], a[:, 2]


def main():
    out = sys.argv[1]
    result = {"held_out": {}, "npt_1bar": {}}
    for h in ("c1100h", "l2100h"):
        s = json.load(open(os.path.join(out, f"eval_{h}", "summary.json")))
        result["held_out"][h] = {"force_rmse_meV_per_A": 1000 * find(s, "force_rmse"),
                                 "energy_rmse_meV_per_atom": 1000 * find(s, "energy_rmse_per_atom")}
    lo, hi = density_range(out)
    result["training_density_g_cm3"] = [lo, hi]
    for phase in ("liquid", "crystal"):
        sw = density(os.path.join(out, "npt", f"sw_{phase}"))
        dp = density(os.path.join(out, "npt", f"dp_{phase}"))
        entry = {"sw": sw, "deep_potential": dp}
        if sw and dp:
            err = math.hypot(sw["block_error"], dp["block_error"])
            entry["difference_relative"] = dp["mean"] / sw["mean"] - 1
            entry["difference_in_errors"] = (dp["mean"] - sw["mean"]) / err if err > 0 else math.inf
        result["npt_1bar"][phase] = entry
    with open(os.path.join(out, "lammps_checks.json"), "w") as f:
        json.dump(result, f, indent=2)
    print(json.dumps(result, indent=2))

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    for ax, phase, t in ((axes[0], "liquid", 2100), (axes[1], "crystal", 1000)):
        for name, style in (("sw", "k-"), ("dp", "r--")):
            g = rdf(os.path.join(out, "npt", f"{name}_{phase}"))
            if g:
                ax.plot(g[0], g[1], style, label="Stillinger-Weber" if name == "sw" else "deep potential")
        ax.set_title(f"{phase}, {t} K, 1 bar (LAMMPS NPT, 216 atoms)")
        ax.set_xlabel("r (Å)")
        ax.set_ylabel("g(r)")
        ax.legend()
    ax = axes[2]
    labels, values, errors, colours = [], [], [], []
    for phase in ("liquid", "crystal"):
        for name, key, colour in (("SW", "sw", "k"), ("DP", "deep_potential", "r")):
            d = result["npt_1bar"][phase][key]
            labels.append(f"{phase}\n{name}")
            values.append(d["mean"] if d else 0)
            errors.append(d["block_error"] if d else 0)
            colours.append(colour)
    ax.bar(labels, values, yerr=errors, color=colours, alpha=0.6, capsize=4)
    ax.axhspan(lo, hi, color="b", alpha=0.1, label="training frames' densities")
    ax.set_ylim(min(v for v in values if v > 0) * 0.95, max(values) * 1.03)
    ax.set_ylabel("density (g/cm³)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "lammps_checks.png"), dpi=120)


if __name__ == "__main__":
    main()
