#!/usr/bin/env bash
# The RANS airfoil surrogate pipeline of issue 15 (AirfRANS protocol at this machine's size) on
# its embedded default (cases/airfoil_rans_surrogate):
#   1. the training sweep (96 cases) and the held-out test sweep (24 cases): Spalart–Allmaras
#      flow past NACA 4- and 5-digit airfoils, α −5°…15°, Re 2–6e6, 128 × 64 cells, 2 MPI ranks;
#   2. the per-point MLP (outputs ρ, u, v, Cp, ν_t) trained on the training sweep;
#   3. `surrox evaluate` on the test sweep: AirfRANS's metrics (MSE of the normalised fields and
#      of the surface pressure, relative errors of CL and CD integrated from the predicted
#      fields, Spearman ρ of CL and CD) next to the published values and the issue's targets;
#   4. figures: OUT/loss.png, OUT/forces.png (predicted against CFD CL and CD per test case),
#      OUT/cp.png (surface Cp of two test cases: CFD vs. the prediction);
#   5. the warm-start comparison on the test cases (issue 11's criteria): a mean-flow model
#      (train_mean_flow.yml) trained, then cold vs. warm runs (warm_start.yaml) from it and from
#      step 2's model, whose ν_t also starts ν̃; skipped with WARM_START=0.
# Needs a built surrox (scripts/build.sh) and python3-matplotlib for the figures. A rerun skips
# the sweep cases already finished. Its run time is in docs/validation/rans_surrogate.md.
#
# Usage: scripts/rans_surrogate.sh [OUT]        (default out/rans_surrogate)
#        SURROX=path/to/surrox WARM_START=0 scripts/rans_surrogate.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
surrox="${SURROX:-$root/build/${SURROX_PRESET:-release}/apps/surrox}"
out="$(mkdir -p "${1:-$root/out/rans_surrogate}" && cd "${1:-$root/out/rans_surrogate}" && pwd)"
cases="$root/cases/airfoil_rans_surrogate"
[ -x "$surrox" ] || { echo "rans_surrogate: no surrox at $surrox; build first (scripts/build.sh)" >&2; exit 2; }
start=$(date +%s)
stamp() { echo "rans_surrogate: $1 ($(( $(date +%s) - start )) s)"; }
mpi() { mpirun --allow-run-as-root --oversubscribe -n 2 "$@"; }

stamp "1/5 sweeps → $out/sweep, $out/test"
mpi "$surrox" run "$cases/sweep.yaml" -o "$out/sweep" --log-level warn
mpi "$surrox" run "$cases/test.yaml" -o "$out/test" --log-level warn

stamp "2/5 training → $out/train"
"$surrox" train "$cases/train.yml" -o "$out/train" --threads 1 --log-level warn \
  --set "data.path=$out/sweep/sweep.h5" > "$out/train.log" 2>&1 ||
  { echo "rans_surrogate: training failed; see $out/train.log" >&2; exit 1; }

stamp "3/5 evaluation on the held-out cases → $out/evaluate"
"$surrox" evaluate "$out/train/model.pt" "$out/test/sweep.h5" -o "$out/evaluate" --threads 2 \
  --log-level warn
cp "$out/evaluate/airfrans.md" "$out/summary.md"
cat "$out/summary.md"

stamp "4/5 figures"
/usr/bin/python3 - "$out" <<'PY' || echo "rans_surrogate: no figures (see the error above; python3-matplotlib for /usr/bin/python3?)" >&2
import json, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import csv
out = sys.argv[1]
rows = list(csv.DictReader(open(f"{out}/train/metrics.csv")))
fig, ax = plt.subplots(figsize=(6, 4))
epoch = [int(r["epoch"]) for r in rows]
ax.semilogy(epoch, [float(r["train_loss"]) for r in rows], label="training")
ax.semilogy(epoch, [float(r["validation_loss"]) for r in rows], "--", label="validation")
ax.set_xlabel("epoch"); ax.set_ylabel("MSE (normalised)"); ax.grid(True, which="both", alpha=0.3); ax.legend()
fig.tight_layout(); fig.savefig(f"{out}/loss.png", dpi=110)
m = json.load(open(f"{out}/evaluate/summary.json"))["results"]["airfrans"]
cases = m["per_case"]
fig, axes = plt.subplots(1, 2, figsize=(9, 4))
for ax, key, name in ((axes[0], "cl", "CL"), (axes[1], "cd", "CD")):
    t = [c[f"{key}_cfd"] for c in cases]; p = [c[f"{key}_predicted"] for c in cases]
    ax.plot(t, p, "o")
    lo, hi = min(t + p), max(t + p)
    ax.plot([lo, hi], [lo, hi], "k--", lw=0.8)
    ax.set_xlabel(f"{name} from the CFD fields"); ax.set_ylabel(f"{name} from the predicted fields")
    rel = m[f"{key}_relative_error"]; rho = m[f"spearman_{key}"]
    ax.set_title(f"{name}: mean rel. error {rel:.3g}, Spearman {rho:.3f}", fontsize=9)
    ax.grid(True, alpha=0.3)
fig.tight_layout(); fig.savefig(f"{out}/forces.png", dpi=110)
fig, axes = plt.subplots(1, 2, figsize=(10, 4))
for ax, c in zip(axes, (cases[0], cases[len(cases) // 2])):
    ax.plot(c["wall_x"], c["wall_cp_cfd"], "k-", label="CFD")
    ax.plot(c["wall_x"], c["wall_cp_predicted"], "C1--", label="surrogate")
    ax.invert_yaxis(); ax.set_xlabel("x"); ax.set_ylabel("Cp (wall cells)")
    naca = str(c.get("naca", "")).strip('"')
    ax.set_title(f"NACA {naca} ({c['case']}): α {c['alpha_deg']}°, Re {c['reynolds']:.3g}", fontsize=9)
    ax.grid(True, alpha=0.3); ax.legend()
fig.tight_layout(); fig.savefig(f"{out}/cp.png", dpi=110)
print(f"rans_surrogate: figures {out}/loss.png, {out}/forces.png, {out}/cp.png")
PY
if [ "${WARM_START:-1}" != 0 ]; then
  stamp "5/5 warm-start comparison → $out/warm_start"
  "$surrox" train "$cases/train_mean_flow.yml" -o "$out/train_mean_flow" --threads 1 \
    --log-level warn --set "data.path=$out/sweep/sweep.h5" > "$out/train_mean_flow.log" 2>&1 ||
    { echo "rans_surrogate: training failed; see $out/train_mean_flow.log" >&2; exit 1; }
  "$surrox" run "$cases/warm_start.yaml" -o "$out/warm_start" --log-level warn \
    --set "coupler.models=[$out/train_mean_flow/model.pt,$out/train/model.pt]"
  cat "$out/warm_start/comparison.md"
fi
stamp "done: $out/summary.md, $out/evaluate/summary.json"
