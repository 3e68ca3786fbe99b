#!/usr/bin/python3
"""Figures of the NACA 0012 section of docs/validation/rans.md from the runs of
scripts/validate_rans_naca0012.sh (folders a<alpha>_<ni>x<nj> with monitor.csv, surface.csv).

  rans_naca0012_residuals.png   density and ν̃ residuals against cycles, per grid (α = 10°) and
                                variants of a grid (folders a10_<ni>x<nj>_<name>, e.g. _cfl20)
  rans_naca0012_cp_cf.png       Cp and Cf against x/c on each grid (α = 10°); TMR's CFL3D/FUN3D
                                surface data were not reachable from this machine: ours only
  rans_naca0012_forces.png      CL and CD against 1/N with TMR's grid-converged SA bands

Usage: scripts/figures/rans_naca0012.py [RUN_DIR (default /tmp/surrox-rans-naca)] [--out docs/validation/figures]
"""
import csv
import json
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TMR_CL, TMR_CD = (1.0909, 1.0913), (0.01221, 0.01227)
runs_dir = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else "/tmp/surrox-rans-naca")
out = pathlib.Path(sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else "docs/validation/figures")
out.mkdir(parents=True, exist_ok=True)


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


# A run stopped before its end (no summary.json) counts with the last row of its partial monitor
# and without a surface (the legend says so).
runs = []
for d in sorted(runs_dir.glob("a10_*x*"), key=lambda p: int(p.name.split("_")[1].split("x")[0])):
    if (d / "summary.json").exists():
        s = json.loads((d / "summary.json").read_text())["results"]["airfoil"]
        runs.append((d.name[4:], d, s))
    elif (d / "monitor.csv.partial").exists():
        last = read(d / "monitor.csv.partial")[-1]
        s = {k: float(last[k]) for k in ("cl", "cd", "cd_pressure", "cd_friction")}
        runs.append((d.name[4:] + f" (stopped at {last['step']})", d, s))

fig, ax = plt.subplots(figsize=(6, 4.5))
for name, d, _ in runs:
    mon = read(d / "monitor.csv") if (d / "monitor.csv").exists() else read(d / "monitor.csv.partial")
    step = [int(r["step"]) for r in mon]
    ax.semilogy(step, [float(r["res_rho"]) for r in mon], label=f"{name} density")
    ax.semilogy(step, [float(r["res_nu_tilde"]) for r in mon], ":", label=f"{name} ν̃")
ax.set_xlabel("multigrid cycle")
ax.set_ylabel("L2 residual / first")
ax.set_title("NACA 0012 SA-neg, M 0.15, Re 6e6, α 10°")
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(out / "rans_naca0012_residuals.png", dpi=120)

# Variants of a grid (a10_128x64_cfl20) appear in the residual figure only.
variants = [r for r in runs if "_" in r[0].split(" ")[0]]
runs = [r for r in runs if r not in variants]
fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.5))
for name, d, _ in runs:
    if not (d / "surface.csv").exists():
        continue
    surf = read(d / "surface.csv")
    for up, style in ((1, "-"), (0, "--")):
        pts = sorted((float(r["x_over_c"]), float(r["cp"]), float(r["cf"])) for r in surf if int(r["upper"]) == up)
        a1.plot([p[0] for p in pts], [p[1] for p in pts], style, lw=1, label=f"{name} {'upper' if up else 'lower'}")
        a2.plot([p[0] for p in pts], [p[2] for p in pts], style, lw=1, label=f"{name} {'upper' if up else 'lower'}")
a1.invert_yaxis()
a1.set_xlabel("x/c")
a1.set_ylabel("Cp")
a2.set_xlabel("x/c")
a2.set_ylabel("Cf")
a2.set_ylim(-0.002, 0.02)
a1.legend(fontsize=7)
a2.legend(fontsize=7)
fig.suptitle("NACA 0012 SA-neg, α 10° (ours only: TMR's surface data not reachable here)")
fig.tight_layout()
fig.savefig(out / "rans_naca0012_cp_cf.png", dpi=120)

fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
inv_n = [1 / int(n.split("x")[0]) for n, _, _ in runs]
stopped = [n for n, _, _ in runs if "stopped" in n]
a1.plot(inv_n, [s["cl"] for _, _, s in runs], "o-",
        label="surrox" + (f" ({', '.join(stopped)}: not converged)" if stopped else ""))
a1.axhspan(*TMR_CL, color="k", alpha=0.3, label="TMR SA (grid-converged)")
a2.plot(inv_n, [s["cd"] for _, _, s in runs], "o-", label="CD")
a2.plot(inv_n, [s["cd_pressure"] for _, _, s in runs], "s--", label="CD pressure")
a2.plot(inv_n, [s["cd_friction"] for _, _, s in runs], "^--", label="CD friction")
a2.axhspan(*TMR_CD, color="k", alpha=0.3, label="TMR CD")
a2.axhline(0.00606, color="k", ls=":", lw=1, label="TMR pressure / viscous")
a2.axhline(0.00621, color="k", ls=":", lw=1)
for a, y in ((a1, "CL"), (a2, "CD")):
    a.set_xlabel("1 / cells around")
    a.set_ylabel(y)
    a.set_xlim(left=0)
    a.legend(fontsize=8)
fig.tight_layout()
fig.savefig(out / "rans_naca0012_forces.png", dpi=120)
print("wrote", out)
