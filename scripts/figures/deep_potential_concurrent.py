#!/usr/bin/python3
"""Concurrent learning per iteration (scripts/deep_potential_concurrent.sh):

  deep_potential_concurrent.py OUT     OUT/concurrent_learning.png from OUT/iterations.csv and
                                       OUT/summary.json (held-out force RMSE per system)

Left: the fractions of the explored model-deviation rows that are accurate (max ε_F < lo),
candidates (lo ≤ max ε_F < hi, labelled for the next iteration) and failed (≥ hi). Right: model
0's force RMSE on the held-out frames, pooled and per held-out system, and the mean over the
ensemble's models of their pooled RMSE.
"""
import csv
import json
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

out = pathlib.Path(sys.argv[1])
rows = list(csv.DictReader(open(out / "iterations.csv")))
it = [int(r["iteration"]) for r in rows]
summary = json.load(open(out / "summary.json"))["results"]["iterations"]
fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
for key, label, colour in (("accurate_fraction", "accurate (< lo)", "tab:green"),
                           ("candidate_fraction", "candidates [lo, hi)", "tab:orange"),
                           ("failed_fraction", "failed (≥ hi)", "tab:red")):
    a.plot(it, [100 * float(r[key]) for r in rows], "o-", color=colour, label=label)
a.set_xlabel("iteration")
a.set_ylabel("explored rows (%)")
a.set_xticks(it)
a.set_ylim(-3, 103)
a.legend()
a.set_title("model deviation of the ensemble's explorations")
b.plot(it, [1000 * float(r["held_out_force_rmse"]) for r in rows], "ko-", label="all held-out")
b.plot(it, [1000 * float(r["ensemble_held_out_force_rmse"]) for r in rows], "k^:",
       label="all held-out, mean of the models")
names = [pathlib.Path(s["data"]).parent.name for s in summary[0].get("held_out_systems", [])]
for k, name in enumerate(names):
    b.plot(it, [1000 * s["held_out_systems"][k]["force_rmse"] for s in summary], "s--", label=name)
b.set_xlabel("iteration")
b.set_ylabel("force RMSE (meV/Å)")
b.set_xticks(it)
b.set_yscale("log")
b.legend()
b.set_title("model 0 on held-out frames")
for r in rows:
    b.annotate(f"{r['training_frames']} frames", (int(r["iteration"]), 1000 * float(r["held_out_force_rmse"])),
               textcoords="offset points", xytext=(4, 6), fontsize=8)
fig.tight_layout()
fig.savefig(out / "concurrent_learning.png", dpi=120)
print(f"wrote {out / 'concurrent_learning.png'}")
