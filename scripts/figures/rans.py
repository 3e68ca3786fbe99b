#!/usr/bin/python3
"""Figures for docs/validation/rans.md from the logs of scripts/validate_rans_flat_plate.sh.

  rans_flat_plate_profile.png   u+ against y+ at x = 0.97 on each grid, with u+ = y+ and the
                                log law u+ = ln(y+)/0.41 + 5.0
  rans_flat_plate_cf.png        Cf(0.97) against 1/N (N: cells in y) with TMR's SA value

Usage: scripts/figures/rans.py [LOG_DIR (default /tmp/surrox-rans-plate)] [--out docs/validation/figures]
Needs Debian's python3-matplotlib and python3-numpy.
"""
import math
import pathlib
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TMR_CF = 0.00270562
logs = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else "/tmp/surrox-rans-plate")
out = pathlib.Path(sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else "docs/validation/figures")
runs = []
for log in sorted(logs.glob("grid_*.log"), key=lambda p: int(p.stem.split("_")[3])):
    text = log.read_text()
    m = re.search(r"grid (\d+)\+(\d+) x (\d+): (\d+) cycles, residual (\S+), Cf\(0.97\) = (\S+)", text)
    if not m:
        continue
    prof = [tuple(map(float, l.split()[1:3])) for l in text.splitlines() if l.startswith("profile")]
    runs.append((int(m.group(1)) + int(m.group(2)), int(m.group(3)), float(m.group(6)), prof))

fig, ax = plt.subplots(figsize=(6, 4.5))
for ni, nj, cf, prof in runs:
    ax.semilogx([p[0] for p in prof], [p[1] for p in prof], "o-", ms=3, label=f"{ni} x {nj}")
yp = [10 ** (k / 20) for k in range(-10, 81)]
ax.semilogx([y for y in yp if y < 15], [y for y in yp if y < 15], "k--", label="u+ = y+")
ax.semilogx([y for y in yp if y > 5], [math.log(y) / 0.41 + 5.0 for y in yp if y > 5], "k:",
            label="ln(y+)/0.41 + 5.0")
ax.set_xlabel("y+")
ax.set_ylabel("u+")
ax.set_ylim(0, 30)
ax.set_title("Flat plate, SA-neg, x = 0.97 (Re_x = 4.85e6)")
ax.legend()
fig.tight_layout()
fig.savefig(out / "rans_flat_plate_profile.png", dpi=110)

fig, ax = plt.subplots(figsize=(6, 4))
ax.plot([1 / r[1] for r in runs], [r[2] for r in runs], "o-", label="surrox SA-neg")
ax.axhline(TMR_CF, color="k", ls="--", label="TMR SA (CFL3D 545 x 385)")
ax.set_xlabel("1 / cells in y")
ax.set_ylabel("Cf at x = 0.97")
ax.set_xlim(left=0)
ax.legend()
fig.tight_layout()
fig.savefig(out / "rans_flat_plate_cf.png", dpi=110)
for ni, nj, cf, _ in runs:
    print(f"{ni} x {nj}: Cf(0.97) = {cf:.8f} ({100 * (cf / TMR_CF - 1):+.2f} %)")
