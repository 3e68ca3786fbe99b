#!/usr/bin/env bash
# The airfoil surrogate pipeline on its embedded small default (cases/airfoil_surrogate):
#   1. the training sweep: 96 Euler cases, each its own NACA 4-digit airfoil, α and M (a fixed
#      random design), 96 × 48 cells, on 2 MPI ranks;
#   2. two trainings of the per-point MLP (outputs ρ, u, v, Cp), plain MSE and area^0.25-weighted
#      MSE (side by side, one LibTorch thread each);
#   3. the warm-start comparison on 24 held-out cases: cold start vs. a warm start from each model;
#   4. the summary table (printed and written to OUT/summary.md) and PNG plots: OUT/loss.png (both
#      loss curves; each training also writes its own loss.png) and OUT/cp.png (surface Cp of
#      one test case: CFD vs. the two predictions).
# Needs a built surrox (scripts/build.sh) and python3-matplotlib for the plots. A rerun skips the
# sweep cases already finished. Its run time on a 2-core machine is in docs/validation/warm_start.md.
#
# Usage: scripts/pipeline.sh [OUT]        (default out/airfoil_surrogate)
#        SURROX=path/to/surrox scripts/pipeline.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
surrox="${SURROX:-$root/build/${SURROX_PRESET:-release}/apps/surrox}"
out="$(mkdir -p "${1:-$root/out/airfoil_surrogate}" && cd "${1:-$root/out/airfoil_surrogate}" && pwd)"
cases="$root/cases/airfoil_surrogate"
[ -x "$surrox" ] || { echo "pipeline: no surrox at $surrox; build first (scripts/build.sh)" >&2; exit 2; }
start=$(date +%s)
stamp() { echo "pipeline: $1 ($(( $(date +%s) - start )) s)"; }

stamp "1/4 sweep → $out/sweep"
mpirun --allow-run-as-root --oversubscribe -n 2 "$surrox" run "$cases/sweep.yaml" -o "$out/sweep" --log-level warn

stamp "2/4 training (mse, area_weighted) → $out/train_*"
pids=()
for loss in mse area_weighted; do
  "$surrox" train "$cases/train_$loss.yml" -o "$out/train_$loss" --threads 1 --log-level warn \
    --set "data.path=$out/sweep/sweep.h5" > "$out/train_$loss.log" 2>&1 &
  pids+=($!)
done
for pid in "${pids[@]}"; do
  wait "$pid" || { echo "pipeline: a training failed; see $out/train_*.log" >&2; exit 1; }
done

stamp "3/4 warm-start comparison → $out/warm_start"
"$surrox" run "$cases/warm_start.yaml" -o "$out/warm_start" --log-level warn \
  --set "coupler.models=[$out/train_mse/model.pt, $out/train_area_weighted/model.pt]"

stamp "4/4 summary and plots"
cp "$out/warm_start/comparison.md" "$out/summary.md"
cat "$out/summary.md"
/usr/bin/python3 - "$out" <<'PY' || echo "pipeline: no plots (is python3-matplotlib installed for /usr/bin/python3?)" >&2
import csv, json, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
out = sys.argv[1]
fig, ax = plt.subplots(figsize=(6, 4))
for label in ("mse", "area_weighted"):
    rows = list(csv.DictReader(open(f"{out}/train_{label}/metrics.csv")))
    epoch = [int(r["epoch"]) for r in rows]
    ax.semilogy(epoch, [float(r["train_loss"]) for r in rows], label=f"{label}: training")
    ax.semilogy(epoch, [float(r["validation_loss"]) for r in rows], "--", label=f"{label}: validation")
ax.set_xlabel("epoch"); ax.set_ylabel("loss (normalised; each its own loss)")
ax.grid(True, which="both", alpha=0.3); ax.legend(); fig.tight_layout()
fig.savefig(f"{out}/loss.png", dpi=110)
summary = json.load(open(f"{out}/warm_start/summary.json"))["results"]
case = summary["cases"][0]
rows = list(csv.DictReader(open(case["surface_csv"])))
fig, ax = plt.subplots(figsize=(6, 4))
x = [float(r["x_over_c"]) for r in rows]
for key, style, name in (("cp_cfd", "k-", "CFD (converged)"), ("cp_mse", "C0--", "surrogate, MSE"),
                         ("cp_area_weighted", "C1:", "surrogate, area-weighted MSE")):
    ax.plot(x, [float(r[key]) for r in rows], style, label=name)
params = ", ".join(f"{k.split('.')[-1]} = {v}" for k, v in case["parameters"].items())
ax.invert_yaxis(); ax.set_xlabel("x/c"); ax.set_ylabel("Cp"); ax.set_title(f"{case['name']}: {params}", fontsize=9)
ax.grid(True, alpha=0.3); ax.legend(); fig.tight_layout()
fig.savefig(f"{out}/cp.png", dpi=110)
print(f"pipeline: plots {out}/loss.png, {out}/cp.png")
PY
stamp "done: $out/summary.md, $out/warm_start/summary.json"
