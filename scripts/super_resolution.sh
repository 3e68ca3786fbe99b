#!/usr/bin/env bash
# The super-resolution pipeline on its embedded small default (cases/super_resolution/train.yml):
#   1. three Rayleigh–Bénard runs at Ra = 1e6 (ra1e6_dataset_256.yaml on a uniform 256 × 64 grid,
#      201 frames over t ∈ [0, 50]) with initial-noise seeds 42 and 13 (training) and 7 (held out);
#   2. MeshfreeFlowNet training through `surrox train` (family super_resolution);
#   3. `surrox evaluate` on the held-out seed: NMAE, relative L2 and R² per channel of the model
#      and of trilinear interpolation, RMS PDE residual of both;
#   4. figures: OUT/snapshot.png (truth / low-res / trilinear / model of b and w at a frame between
#      two low-res frames) and OUT/error_vs_time.png (NMAE against time), from python3-matplotlib.
# Needs a built surrox. A rerun skips runs already finished. EPOCHS=N overrides the epochs.
#
# Usage: scripts/super_resolution.sh [OUT]     (default out/super_resolution)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
surrox="${SURROX:-$root/build/${SURROX_PRESET:-release}/apps/surrox}"
out="$(mkdir -p "${1:-$root/out/super_resolution}" && cd "${1:-$root/out/super_resolution}" && pwd)"
[ -x "$surrox" ] || { echo "super_resolution: no surrox at $surrox; build first" >&2; exit 2; }
start=$(date +%s)
stamp() { echo "super_resolution: $1 ($(( $(date +%s) - start )) s)"; }

stamp "1/4 Rayleigh–Bénard runs → $out/rb_s*"
for seed in 42 13 7; do
  [ -f "$out/rb_s$seed/fields.h5" ] && continue
  "$surrox" run "$root/cases/rayleigh_benard/ra1e6_dataset_256.yaml" -o "$out/rb_s$seed" \
    --log-level warn --set solver.stretching=0 --set solver.seed=$seed
done

stamp "2/4 training → $out/train"
extra=()
[ -n "${EPOCHS:-}" ] && extra+=(--set "training.epochs=$EPOCHS")
"$surrox" train "$root/cases/super_resolution/train.yml" -o "$out/train" --log-level warn \
  --set "data.train=[$out/rb_s42/fields.h5,$out/rb_s13/fields.h5]" \
  --set "data.validation=[$out/rb_s7/fields.h5]" "${extra[@]}"

stamp "3/4 evaluation on the held-out seed → $out/evaluate"
"$surrox" evaluate "$out/train/model.pt" "$out/rb_s7/fields.h5" -o "$out/evaluate" --log-level warn

stamp "4/4 figures"
/usr/bin/python3 "$root/scripts/figures/super_resolution.py" "$out" || echo "super_resolution: no figures (python3-matplotlib missing?)"
stamp "done; numbers in $out/evaluate/summary.json"
