#!/usr/bin/python3
"""The NACA 0012 lift curve of docs/validation/rans.md from scripts/rans_lift_curve.sh's sweeps
(RUN_DIR/<ni>x<nj>/cases/<case>/case.json, the sweep's record, and case.resolved.yaml): CL(α) and CD(α) per grid
with CFL3D's SA values at TMR's angles (897 × 257; 0°: CD 0.00809–0.00812, 10°: CL 1.0909–1.0913,
CD 0.01221–0.01227, 15°: CL 1.5461, CD 0.02124). Ladson's experimental data were not reachable
from this machine. Prints a table (cycles, CL, CD, converged) per grid and angle.

Usage: scripts/figures/rans_lift_curve.py [RUN_DIR (default /tmp/surrox-lift-curve)] [--out docs/validation/figures]
"""
import json
import pathlib
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

CFL3D = {0: (0.0, 0.008105), 10: (1.0911, 0.01224), 15: (1.5461, 0.02124)}
runs_dir = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else "/tmp/surrox-lift-curve")
out = pathlib.Path(sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else "docs/validation/figures")
out.mkdir(parents=True, exist_ok=True)


def alpha_of(case_dir):
    text = (case_dir / "case.resolved.yaml").read_text()
    return float(re.search(r"^\s*alpha_deg:\s*(\S+)", text, re.M).group(1))


fig, (ax_cl, ax_cd) = plt.subplots(1, 2, figsize=(10, 4))
for grid in sorted(runs_dir.glob("*x*"), key=lambda p: int(p.name.split("x")[0])):
    rows = []
    for case in sorted((grid / "cases").glob("*")):
        if not (case / "case.resolved.yaml").exists():
            continue
        a = alpha_of(case)
        record = json.loads((case / "case.json").read_text()) if (case / "case.json").exists() else {}
        if record.get("status") == "ok":
            s = record["results"]["airfoil"]
            rows.append((a, int(s["iterations"]), s["cl"], s["cd"], bool(s["converged"])))
        else:
            rows.append((a, None, None, None, record.get("status", "running or missing")))
    rows.sort()
    print(f"{grid.name}: alpha, cycles, CL, CD, converged")
    for r in rows:
        print("  ", *r)
    ok = [r for r in rows if r[2] is not None]
    for ax, k in ((ax_cl, 2), (ax_cd, 3)):
        line, = ax.plot([r[0] for r in ok], [r[k] for r in ok], "-", label=f"surrox {grid.name}")
        done = [r for r in ok if r[4] is True]
        ax.plot([r[0] for r in done], [r[k] for r in done], "o", color=line.get_color())
        stopped = [r for r in ok if r[4] is not True]
        if stopped:  # at the iteration limit, unconverged (past CLmax)
            ax.plot([r[0] for r in stopped], [r[k] for r in stopped], "o", mfc="none",
                    color=line.get_color(), label=f"{grid.name}: iteration limit, not converged")
    failed = [r[0] for r in rows if r[2] is None]
    for a in failed:
        ax_cl.axvline(a, color="grey", lw=0.5, ls=":")
ax_cl.plot(list(CFL3D), [v[0] for v in CFL3D.values()], "k*", ms=10, label="CFL3D 897 × 257 (TMR)")
ax_cd.plot(list(CFL3D), [v[1] for v in CFL3D.values()], "k*", ms=10, label="CFL3D 897 × 257 (TMR)")
ax_cl.set_xlabel("α (°)"), ax_cl.set_ylabel("CL"), ax_cl.grid(alpha=0.3), ax_cl.legend()
ax_cd.set_xlabel("α (°)"), ax_cd.set_ylabel("CD"), ax_cd.grid(alpha=0.3), ax_cd.legend()
fig.suptitle("NACA 0012, M 0.15, Re 6e6, SA-neg: one case file, every angle from the free stream")
fig.tight_layout()
fig.savefig(out / "rans_lift_curve.png", dpi=120)
print("wrote", out / "rans_lift_curve.png")
