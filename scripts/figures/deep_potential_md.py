#!/usr/bin/python3
"""MD on a deep potential against Stillinger–Weber: the helpers of scripts/deep_potential_md_checks.sh.

  deep_potential_md.py data DUMP STEP OUT.data     a dump frame (with velocities) as a LAMMPS data file
  deep_potential_md.py crystal A CELLS OUT.data    a diamond lattice, CELLS³ unit cells, at rest
  deep_potential_md.py report OUT                  OUT/md_checks.json and OUT/md_checks.png

The report: the NVE run's drift of e_total (end to end, a linear fit over the run, the largest
excursion) and its temperature range; the RDF of the Langevin runs over steps ≥ 2000 (DP against
SW, standard errors from 10 blocks of consecutive frames); the 1000 K crystal's RMS displacement
from its lattice sites at the end (minimum image, centre-of-mass drift removed) and its RDF.
"""
import csv
import json
import pathlib
import sys

import numpy as np


def frames(path):
    lines = pathlib.Path(path).read_text().split("\n")
    i, out = 0, []
    while i < len(lines):
        if lines[i].startswith("ITEM: TIMESTEP"):
            step, n = int(lines[i + 1]), int(lines[i + 3])
            box = np.array([list(map(float, lines[i + 5 + k].split())) for k in range(3)])
            rows = np.array([list(map(float, l.split())) for l in lines[i + 9:i + 9 + n]])
            out.append((step, box, rows[np.argsort(rows[:, 0])]))
            i += 9 + n
        else:
            i += 1
    return out


def write_data(path, box, positions, velocities=None):
    with open(path, "w") as f:
        f.write(f"surrox deep-potential MD check\n\n{len(positions)} atoms\n1 atom types\n\n")
        for k, a in enumerate("xyz"):
            f.write(f"{box[k][0]} {box[k][1]} {a}lo {a}hi\n")
        f.write("\nMasses\n\n1 28.06\n\nAtoms # atomic\n\n")
        for n, x in enumerate(positions):
            f.write(f"{n + 1} 1 {x[0]:.10f} {x[1]:.10f} {x[2]:.10f}\n")
        if velocities is not None:
            f.write("\nVelocities\n\n")
            for n, v in enumerate(velocities):
                f.write(f"{n + 1} {v[0]:.10f} {v[1]:.10f} {v[2]:.10f}\n")


def diamond(a, cells):
    basis = np.array([[0, 0, 0], [0, .5, .5], [.5, 0, .5], [.5, .5, 0],
                      [.25, .25, .25], [.25, .75, .75], [.75, .25, .75], [.75, .75, .25]])
    sites = [(np.array(c) + b) * a for c in np.ndindex(cells, cells, cells) for b in basis]
    return np.array([[0, cells * a]] * 3), np.array(sites)


def rdf(path, first, rmax=5.0, bins=50):
    per = []
    edges = np.linspace(0, rmax, bins + 1)
    shell = 4 / 3 * np.pi * (edges[1:] ** 3 - edges[:-1] ** 3)
    for step, box, rows in frames(path):
        if step < first:
            continue
        length = box[:, 1] - box[:, 0]
        x = rows[:, 2:5]
        n = len(x)
        d = x[None, :, :] - x[:, None, :]
        d -= length * np.round(d / length)
        r = np.sqrt((d ** 2).sum(-1))[np.triu_indices(n, 1)]
        per.append(np.histogram(r, edges)[0] / (n / 2 * n / np.prod(length) * shell))
    per = np.array(per)
    blocks = np.array([b.mean(0) for b in np.array_split(per, 10)])
    return 0.5 * (edges[1:] + edges[:-1]), per.mean(0), blocks.std(0, ddof=1) / np.sqrt(10), len(per)


def thermo(path):
    rows = list(csv.DictReader(open(path)))
    return {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}


def report(out):
    out = pathlib.Path(out)
    result = {}
    t = thermo(out / "dp_nve" / "thermo.csv")
    e0 = t["e_total"][0]
    slope = np.polyfit(t["step"], t["e_total"], 1)[0]
    result["nve"] = {
        "steps": int(t["step"][-1]),
        "drift_end_to_end": float((t["e_total"][-1] - e0) / abs(e0)),
        "drift_linear_fit": float(slope * t["step"][-1] / abs(e0)),
        "max_excursion": float(np.abs(t["e_total"] - e0).max() / abs(e0)),
        "temperature_min_max": [float(t["temp"].min()), float(t["temp"].max())],
    }
    r, g_sw, s_sw, n_sw = rdf(out / "sw_liquid" / "dump.lammpstrj", 2000)
    _, g_dp, s_dp, n_dp = rdf(out / "dp_nvt" / "dump.lammpstrj", 2000)
    z = np.abs(g_dp - g_sw) / np.sqrt(s_sw ** 2 + s_dp ** 2 + 1e-30)
    occupied = (g_sw > 0.05) | (g_dp > 0.05)
    peak = np.argmax(g_sw)
    result["rdf"] = {
        "frames": [n_sw, n_dp],
        "bins_within_2_stderr": float(np.mean(z[occupied] < 2)),
        "max_difference_in_stderr": float(z[occupied].max()),
        "max_abs_difference": float(np.abs(g_dp - g_sw).max()),
        "first_peak_r": [float(r[peak]), float(r[np.argmax(g_dp)])],
        "first_peak_height": [float(g_sw[peak]), float(g_dp.max())],
    }
    fs = frames(out / "dp_crystal" / "dump.lammpstrj")
    length = fs[0][1][:, 1] - fs[0][1][:, 0]
    d = fs[-1][2][:, 2:5] - fs[0][2][:, 2:5]
    d -= length * np.round(d / length)
    d -= d.mean(0)  # the Langevin noise moves the centre of mass; that is not melting
    _, g_cr, _, _ = rdf(out / "dp_crystal" / "dump.lammpstrj", 2000)
    result["crystal_1000K"] = {
        "steps": fs[-1][0],
        "rms_displacement_from_sites": float(np.sqrt((d ** 2).sum(1).mean())),
        "rdf_between_shells_2.6_to_3.2": float(g_cr[(r > 2.6) & (r < 3.2)].mean()),
    }
    (out / "md_checks.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(1, 3, figsize=(15, 4))
    ax[0].plot(t["step"], (t["e_total"] - e0) / abs(e0), lw=0.8, label="(E − E₀)/|E₀|")
    ax[0].set_xlabel("step (1 fs)")
    ax0 = ax[0].twinx()
    ax0.plot(t["step"], t["temp"], color="tab:red", lw=0.5, alpha=0.6)
    ax0.set_ylabel("temperature (K)", color="tab:red")
    ax[0].set_title("NVE on the deep potential, 64 atoms", fontsize=9)
    ax[0].legend(fontsize=8)
    ax[1].errorbar(r, g_sw, yerr=s_sw, fmt="k-", lw=1, label="Stillinger–Weber")
    ax[1].errorbar(r, g_dp, yerr=s_dp, fmt="o", ms=3, label="deep potential")
    ax[1].set_xlabel("r (Å)")
    ax[1].set_title("g(r), Langevin 2100 K, a = 5.24 Å, steps 2000–8000", fontsize=9)
    ax[1].legend(fontsize=8)
    ax[2].plot(r, g_cr, "o-", ms=3)
    ax[2].set_xlabel("r (Å)")
    ax[2].set_title("g(r) of the deep-potential crystal at 1000 K", fontsize=9)
    fig.tight_layout()
    fig.savefig(out / "md_checks.png", dpi=110)


def main():
    command = sys.argv[1]
    if command == "data":
        step = int(sys.argv[3])
        _, box, rows = next(f for f in frames(sys.argv[2]) if f[0] == step)
        write_data(sys.argv[4], box, rows[:, 2:5], rows[:, 5:8])
    elif command == "crystal":
        box, sites = diamond(float(sys.argv[2]), int(sys.argv[3]))
        write_data(sys.argv[4], box, sites)
    elif command == "report":
        report(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
