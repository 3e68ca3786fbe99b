#!/usr/bin/env bash
# The deep-potential pipeline on the embedded default (issue 12), in one folder OUT:
#   1. reference MD: Stillinger–Weber silicon (64 atoms) writing DeePMD npy frames
#      (cases/deep_potential/si_reference.yaml): crystal 300–1500 K, strained crystal (±3 %
#      lattice constant), liquid 1700–2500 K (melted from 6000 K at the liquid's density);
#      training and held-out frames are different trajectories (other seeds/temperatures);
#   2. training (cases/deep_potential/si_train.yml) → OUT/model.pt;
#   3. `dp test`-style evaluation on the training frames and on the held-out crystal and liquid
#      trajectories → OUT/eval_*/summary.json and parity plots OUT/eval_*/parity.png;
#   4. model compression (OUT/compressed/model.pt) and MD on it against SW MD
#      (scripts/deep_potential_md_checks.sh: NVE drift, liquid RDF, 1000 K crystal) →
#      OUT/md/md_checks.json and OUT/md/md_checks.png.
# Usage: scripts/deep_potential.sh OUT [STEPS]   (STEPS: training steps, default 20000 as
#        cases/deep_potential/si_train.yml; 6000 takes a third of the training time)
set -euo pipefail
out=${1:?usage: scripts/deep_potential.sh OUT [STEPS]}
steps=${2:-20000}
here=$(cd "$(dirname "$0")/.." && pwd)
surrox=${SURROX:-$here/build/release/apps/surrox}
case=$here/cases/deep_potential/si_reference.yaml
mkdir -p "$out/ref"

reference() {  # name temperature lattice_constant seed [start_temperature]
  local name=$1 t=$2 a=$3 seed=$4 t0=${5:-$2}
  "$surrox" run "$case" -o "$out/ref/$name" --log-level warn \
    --set solver.integrator.temperature="$t" --set solver.lattice.constant="$a" \
    --set solver.integrator.seed="$seed" --set solver.velocity.seed=$((seed * 7 + 1)) \
    --set solver.velocity.temperature="$t0"
}
liquid_a=5.24  # SW liquid silicon is ~11 % denser than the crystal (a = 5.431 Å)
train=() held_crystal=() held_liquid=()
for t in 300 600 1200 1500; do reference "c$t" $t 5.431 $t; train+=("$out/ref/c$t/deepmd"); done
for a in 5.268 5.594; do reference "s$a" 900 $a 11; train+=("$out/ref/s$a/deepmd"); done
for t in 1700 2100 2500; do
  reference "l$t" $t $liquid_a $t 6000; train+=("$out/ref/l$t/deepmd")
done
reference c900h 900 5.431 901; held_crystal+=("$out/ref/c900h/deepmd")
reference l2100h 2100 $liquid_a 2101 6000; held_liquid+=("$out/ref/l2100h/deepmd")

join() { local IFS=,; echo "$*"; }
"$surrox" train "$here/cases/deep_potential/si_train.yml" -o "$out/train" \
  --set "data.train=[$(join "${train[@]}")]" \
  --set "data.validation=[$(join "${held_crystal[@]}" "${held_liquid[@]}")]" \
  --set training.steps="$steps"
cp "$out/train/model.pt" "$out/model.pt"
# The training systems as one folder of systems (links), for one evaluation over all of them.
mkdir -p "$out/train_systems"
for s in "${train[@]}"; do ln -sfn "$s" "$out/train_systems/$(basename "$(dirname "$s")")"; done
"$surrox" evaluate "$out/model.pt" "$out/train_systems" -o "$out/eval_train"
"$surrox" evaluate "$out/model.pt" "${held_crystal[0]}" -o "$out/eval_crystal"
"$surrox" evaluate "$out/model.pt" "${held_liquid[0]}" -o "$out/eval_liquid"
"$surrox" compress "$out/model.pt" -o "$out/compressed"
SURROX=$surrox bash "$here/scripts/deep_potential_md_checks.sh" "$out/compressed/model.pt" "$out/md"
/usr/bin/python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
for name in ("train", "crystal", "liquid"):
    r = json.load(open(f"{out}/eval_{name}/summary.json"))["results"]
    print(f"{'training frames' if name == 'train' else 'held-out ' + name}: energy RMSE {1000 * r['energy_rmse_per_atom']:.2f} meV/atom, "
          f"force RMSE {1000 * r['force_rmse']:.1f} meV/Å, frames {r['frames']}")
PY
