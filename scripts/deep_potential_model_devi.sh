#!/usr/bin/env bash
# Model deviation inside and far outside the training data (issue 12, acceptance 4), in OUT:
#   1. reference MD (Stillinger–Weber silicon, 64 atoms, cases/deep_potential/si_reference.yaml):
#      crystal at 600 K and 1200 K, a frame every 20 steps after 200 (101 frames each);
#   2. four models trained on those frames (cases/deep_potential/si_train.yml, STEPS steps each),
#      differing only in model.seed (DP-GEN's ensemble);
#   3. MD driven by model 0 with `pair: {type: deep, models: [the four]}`, a model_devi row every
#      10 steps: crystal at 900 K (inside the trained 600–1200 K) and at 4000 K (far outside);
#   4. the fraction of rows (from step 200 on) with max_devi_f < lo (0.05 eV/Å) and ≥ hi
#      (0.15 eV/Å) for each.
# Usage: scripts/deep_potential_model_devi.sh OUT [STEPS] [MD_STEPS]   (defaults 1000 and 2000)
#        JOBS=N trains N models at a time (default 1; each trains on one thread).
set -euo pipefail
out=${1:?usage: scripts/deep_potential_model_devi.sh OUT [STEPS] [MD_STEPS]}
steps=${2:-1000}
md_steps=${3:-2000}
jobs=${JOBS:-1}
here=$(cd "$(dirname "$0")/.." && pwd)
surrox=${SURROX:-$here/build/release/apps/surrox}
case=$here/cases/deep_potential/si_reference.yaml
mkdir -p "$out"
for t in 600 1200; do
  "$surrox" run "$case" -o "$out/ref/c$t" --log-level warn \
    --set solver.integrator.temperature=$t --set solver.velocity.temperature=$t \
    --set solver.integrator.seed=$t --set solver.velocity.seed=$((t * 7 + 1))
done
models=()
running=0
for seed in 1 2 3 4; do
  "$surrox" train "$here/cases/deep_potential/si_train.yml" -o "$out/train$seed" --log-level warn \
    --set "data.train=[$out/ref/c600/deepmd,$out/ref/c1200/deepmd]" \
    --set model.seed=$seed --set training.steps="$steps" --set training.disp_freq=$((steps / 4)) &
  models+=("'$out/train$seed/model.pt'")
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
# wait -n returns each training's exit status, so a failed one stops the script (set -e).
while [ "$running" -gt 0 ]; do wait -n; running=$((running - 1)); done
list=$(IFS=,; echo "${models[*]}")
for t in 900 4000; do
  "$surrox" run "$case" -o "$out/md$t" --log-level warn \
    --set "solver.pair={type: deep, models: [$list], out_freq: 10}" \
    --set solver.deepmd.every=0 --set solver.steps="$md_steps" \
    --set solver.integrator.temperature=$t --set solver.velocity.temperature=$t \
    --set solver.integrator.seed=$((t + 5)) --set solver.velocity.seed=$((t + 6))
done
python3 - "$out" <<'PY'
import csv, json, sys
out = sys.argv[1]
lo, hi = 0.05, 0.15
for t in (900, 4000):
    # From step 200 on: step 0 is the perfect lattice (forces vanish by symmetry, deviation 0).
    rows = [r for r in csv.DictReader(open(f"{out}/md{t}/model_devi.csv")) if int(r["step"]) >= 200]
    f = [float(r["max_devi_f"]) for r in rows]
    below = sum(x < lo for x in f) / len(f)
    above = sum(x >= hi for x in f) / len(f)
    f.sort()
    print(f"{t} K: {len(f)} rows, max_devi_f median {f[len(f) // 2]:.4f} eV/Å, "
          f"< {lo}: {100 * below:.1f} %, >= {hi}: {100 * above:.1f} %, "
          f"candidates [{lo}, {hi}): {100 * (1 - below - above):.1f} %")
for seed in (1, 2, 3, 4):
    r = json.load(open(f"{out}/train{seed}/summary.json"))["results"]["train"]
    print(f"model {seed}: training frames energy RMSE {1000 * r['energy_rmse_per_atom']:.2f} "
          f"meV/atom, force RMSE {1000 * r['force_rmse']:.0f} meV/Å")
PY
