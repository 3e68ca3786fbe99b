#!/usr/bin/env python3
"""Numbers and figure of scripts/md_npt_lammps.sh: OUT/npt.json, OUT/npt.md and a PNG.

For each run (LAMMPS fix npt log, surrox thermo.csv) after the first 10 % of its steps: the mean
density, the standard deviation of the density (NPT's volume fluctuation), the mean pressure and
the mean box lengths, each over the whole production run with a jackknife standard error from
20 blocks (blocks of thousands of steps, longer than the volume's correlation time). Pairs (LAMMPS, surrox) are compared in units of
their combined standard error.
"""
import json
import math
import os
import sys

import numpy as np

AMU_PER_A3_TO_G_PER_CM3 = 1.66053907  # 1 amu/Å³ in g/cm³
BLOCKS = 20

RUNS = [  # (label, LAMMPS log, surrox folder, mass per atom or None for the LJ number density)
    ("LJ liquid, iso, 1 rank", "lammps_lj_iso.log", "surrox_lj_iso", None),
    ("LJ liquid, iso, 2 ranks", "lammps_lj_iso.log", "surrox_lj_iso_np2", None),
    ("SW Si crystal, iso", "lammps_sw_iso.log", "surrox_sw_iso", 28.06),
    ("SW Si crystal, per axis", "lammps_sw_aniso.log", "surrox_sw_axes", 28.06),
]


def lammps_thermo(path):
    rows, columns = [], None
    for line in open(path):
        words = line.split()
        if words[:2] == ["Step", "Temp"]:
            columns = [w.lower() for w in words]
            continue
        if columns and words and words[0] == "Loop":
            columns = None
            continue
        if columns and len(words) == len(columns):
            try:
                rows.append([float(w) for w in words])
            except ValueError:
                pass
    a = np.array(rows)
    names = {"step": 0, "temp": 1, "poteng": 2, "press": 3, "volume": 4, "lx": 5, "ly": 6, "lz": 7}
    return {k: a[:, i] for k, i in names.items()}


def surrox_thermo(folder):
    a = np.genfromtxt(os.path.join(folder, "thermo.csv"), delimiter=",", names=True)
    return {"step": a["step"], "temp": a["temp"], "press": a["press"], "volume": a["vol"],
            "lx": a["lx"], "ly": a["ly"], "lz": a["lz"]}


def natoms(mass):
    return 500 if mass is None else 512


def density(t, mass):
    n = natoms(mass)
    return n / t["volume"] if mass is None else n * mass * AMU_PER_A3_TO_G_PER_CM3 / t["volume"]


def production(t):
    keep = t["step"] > 0.1 * t["step"].max()
    return {k: v[keep] for k, v in t.items()}


def blocked(x, statistic=np.mean):
    """The statistic of the whole series and its jackknife standard error over BLOCKS blocks
    (leave one block out). For the standard deviation this keeps the slow part of the
    fluctuation that the spread within short blocks would miss."""
    per = len(x) // BLOCKS
    x = x[:per * BLOCKS]
    whole = float(statistic(x))
    parts = np.array([statistic(np.concatenate([x[:b * per], x[(b + 1) * per:]]))
                      for b in range(BLOCKS)])
    error = math.sqrt((BLOCKS - 1) / BLOCKS * np.sum((parts - parts.mean()) ** 2))
    return whole, float(error)


def summary(t, mass):
    p = production(t)
    rho = density(p, mass)
    out = {"samples": int(len(rho)), "density": blocked(rho), "density_std": blocked(rho, np.std),
           "press": blocked(p["press"]), "temp": blocked(p["temp"])}
    for k in ("lx", "ly", "lz"):
        out[k] = blocked(p[k])
    return out


def sigmas(a, b):
    return (b[0] - a[0]) / math.hypot(a[1], b[1])


def main(out, figure):
    results, lines = [], []
    lines.append("| system | code | ρ | σ(ρ) | ⟨P⟩ | ⟨Lx⟩ / ⟨Ly⟩ / ⟨Lz⟩ |")
    lines.append("|---|---|---|---|---|---|")
    series = {}
    for label, log, folder, mass in RUNS:
        if not os.path.exists(os.path.join(out, log)) or not os.path.exists(
                os.path.join(out, folder, "thermo.csv")):
            print("missing run for", label)
            continue
        lt, st = lammps_thermo(os.path.join(out, log)), surrox_thermo(os.path.join(out, folder))
        lam, ours = summary(lt, mass), summary(st, mass)
        row = {"system": label, "lammps": lam, "surrox": ours,
               "density_sigmas": sigmas(lam["density"], ours["density"]),
               "density_std_sigmas": sigmas(lam["density_std"], ours["density_std"]),
               "density_ratio": ours["density"][0] / lam["density"][0],
               "density_std_ratio": ours["density_std"][0] / lam["density_std"][0]}
        results.append(row)
        series[label] = (density(production(lt), mass), density(production(st), mass))
        unit = "σ⁻³" if mass is None else "g/cm³"
        for code, s in (("LAMMPS fix npt", lam), ("surrox c_rescale", ours)):
            lines.append(
                "| {} | {} | {:.5f} ± {:.5f} {} | {:.5f} ± {:.5f} | {:.3f} ± {:.3f} | {:.4f} / {:.4f} / {:.4f} |"
                .format(label, code, *s["density"], unit, *s["density_std"], *s["press"],
                        s["lx"][0], s["ly"][0], s["lz"][0]))
        print("{}: ρ surrox/LAMMPS {:.5f} ({:+.2f} combined errors), σ(ρ) ratio {:.3f} ({:+.2f})"
              .format(label, row["density_ratio"], row["density_sigmas"], row["density_std_ratio"],
                      row["density_std_sigmas"]))
    table = "\n".join(lines)
    print(table)
    json.dump(results, open(os.path.join(out, "npt.json"), "w"), indent=1)
    open(os.path.join(out, "npt.md"), "w").write(table + "\n")
    if not series:
        return
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    labels = [l for l in series if "2 ranks" not in l]
    fig, axes = plt.subplots(1, len(labels), figsize=(4.2 * len(labels), 3.4))
    for ax, label in zip(np.atleast_1d(axes), labels):
        lam, ours = series[label]
        bins = np.linspace(min(lam.min(), ours.min()), max(lam.max(), ours.max()), 50)
        ax.hist(lam, bins=bins, density=True, histtype="step", label="LAMMPS fix npt")
        ax.hist(ours, bins=bins, density=True, histtype="step", label="surrox c_rescale")
        ax.set_title(label, fontsize=10)
        ax.set_xlabel("density (σ⁻³)" if "LJ" in label else "density (g/cm³)")
    np.atleast_1d(axes)[0].set_ylabel("probability density")
    np.atleast_1d(axes)[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(figure, dpi=120)
    print("figure:", figure)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
