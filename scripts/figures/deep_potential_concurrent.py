#!/usr/bin/python3
"""Concurrent learning per iteration (scripts/deep_potential_concurrent.sh):

  deep_potential_concurrent.py OUT     OUT/concurrent_learning.png from OUT/iterations.csv and
                                       OUT/summary.json

Left: per explored temperature, the fraction of the model-deviation rows that are accurate
(max ε_F < lo; solid) and failed (≥ hi; dotted); the rest are the candidates labelled for the
next iteration. Right: model 0's force RMSE on the held-out frames, pooled and per held-out
system, and the mean over the ensemble's models of their pooled RMSE. The tick labels give the
training frames of each iteration.
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
summary = json.load(open(out / "summary.json"))["results"]["iterations"]
it = [int(r["iteration"]) for r in rows]
ticks = [f"{r['iteration']}\n{r['training_frames']} fr." for r in rows]
fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
temperatures = sorted({e["temperature"] for s in summary for e in s.get("explored", [])})
colours = plt.cm.plasma([k / max(1, len(temperatures)) for k in range(len(temperatures))])
for t, colour in zip(temperatures, colours):
    pts = [(s["iteration"], e) for s in summary for e in s["explored"] if e["temperature"] == t]
    a.plot([p[0] for p in pts], [100 * p[1]["accurate_fraction"] for p in pts], "o-",
           color=colour, label=f"{t:g} K accurate")
    a.plot([p[0] for p in pts], [100 * p[1]["failed_fraction"] for p in pts], "x:",
           color=colour, label=f"{t:g} K failed")
a.set_xlabel("iteration (training frames)")
a.set_ylabel("explored rows (%)")
a.set_xticks(it, ticks)
a.set_ylim(-3, 103)
a.legend(fontsize=7, ncol=2, loc="center left", bbox_to_anchor=(0.0, 0.62))
a.set_title("ensemble deviation: accurate (< lo) and failed (≥ hi)")
b.plot(it, [1000 * float(r["held_out_force_rmse"]) for r in rows], "ko-", label="model 0, all held-out")
b.plot(it, [1000 * float(r["ensemble_held_out_force_rmse"]) for r in rows], "k^:",
       label="mean of the models, all held-out")
names = [pathlib.Path(s["data"]).parent.name for s in summary[0].get("held_out_systems", [])]
for k, name in enumerate(names):
    b.plot(it, [1000 * s["held_out_systems"][k]["force_rmse"] for s in summary], "s--",
           label=f"model 0, {name}")
b.set_xlabel("iteration (training frames)")
b.set_ylabel("force RMSE (meV/Å)")
b.set_xticks(it, ticks)
b.set_yscale("log")
b.legend(fontsize=8, loc="upper right")
b.set_title("held-out frames")
fig.tight_layout()
fig.savefig(out / "concurrent_learning.png", dpi=120)
print(f"wrote {out / 'concurrent_learning.png'}")
