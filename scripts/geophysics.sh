#!/usr/bin/env bash
# The geophysics pipeline on its embedded default (issue 14), the parts that exist so far:
#   1. the emulation dataset: the double gyre on 32 × 64, spun up to t = 10, then 2000 snapshots
#      of ψ, ω, u, v every 0.02 into one fields.h5 (cases/qg/emulation.yaml; ~30 s);
#   2. the POD-LSTM emulator through `surrox train` (cases/qg/pod_lstm.yml: 5 POD modes of the
#      training part, 8 snapshots in, 8 out, split 70/15/15 % in time, an ensemble of five
#      networks; ~20 s);
#   3. `surrox evaluate` on the test part: R² per mode, RMSE of ψ and ACC per lead for the LSTM,
#      persistence, climatology and the linear model;
#   4. the figure: OUT/figures/qg_emulator.png (first POD coefficient against truth, skill
#      against lead time), from python3-matplotlib;
#   5. a small architecture search (cases/qg/pod_lstm_search.yml with a budget of 16: aging
#      evolution over 1–5 LSTM layers of 16–96 units and skips, scored on the validation part;
#      60 s here), its best trained and evaluated: OUT/search/search.csv, search.png, and
#      OUT/search_evaluate/summary.json. Candidates share out over ranks under
#      GEOPHYSICS_MPIEXEC="mpiexec -n 2".
#   6. the neural-step coupler (cases/qg/neural_step.yaml, shortened: 2 time units of training
#      data, 1 of comparison, one timing repeat; ~3 min): OUT/neural_step/curve.md and
#      OUT/figures/qg_neural_step.png.
# Needs a built surrox. A rerun skips the dataset when it exists.
#
# Usage: scripts/geophysics.sh [OUT]     (default out/geophysics)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
surrox="${SURROX:-$root/build/${SURROX_PRESET:-release}/apps/surrox}"
out="$(mkdir -p "${1:-$root/out/geophysics}" && cd "${1:-$root/out/geophysics}" && pwd)"
[ -x "$surrox" ] || { echo "geophysics: no surrox at $surrox; build first" >&2; exit 2; }
start=$(date +%s)
stamp() { echo "geophysics: $1 ($(( $(date +%s) - start )) s)"; }

stamp "1/6 emulation dataset → $out/dataset"
[ -f "$out/dataset/fields.h5" ] ||
  "$surrox" run "$root/cases/qg/emulation.yaml" -o "$out/dataset" --log-level warn

stamp "2/6 POD-LSTM training → $out/train"
"$surrox" train "$root/cases/qg/pod_lstm.yml" -o "$out/train" --log-level warn \
  --set "data.path=$out/dataset/fields.h5"

stamp "3/6 evaluation on the test part → $out/evaluate"
"$surrox" evaluate "$out/train/model.pt" "$out/dataset/fields.h5" -o "$out/evaluate" \
  --log-level warn

stamp "4/6 figures → $out/figures"
/usr/bin/python3 "$root/scripts/figures/qg_emulator.py" "$out/evaluate" --out "$out/figures" ||
  echo "geophysics: no figures (python3-matplotlib missing?)"
stamp "5/6 architecture search (budget 16) → $out/search"
${GEOPHYSICS_MPIEXEC:-} "$surrox" train "$root/cases/qg/pod_lstm_search.yml" -o "$out/search" \
  --log-level warn --set "data.path=$out/dataset/fields.h5" --set search.budget=16
"$surrox" evaluate "$out/search/model.pt" "$out/dataset/fields.h5" -o "$out/search_evaluate" \
  --log-level warn
stamp "6/6 neural-step coupler → $out/neural_step"
"$surrox" run "$root/cases/qg/neural_step.yaml" -o "$out/neural_step" --log-level warn \
  --set coupler.training_time=2 --set solver.end_time=13 --set coupler.repeats=1
/usr/bin/python3 "$root/scripts/figures/qg_neural_step.py" "$out/neural_step" --out "$out/figures" ||
  echo "geophysics: no neural-step figure (python3-matplotlib missing?)"
stamp "done; numbers in $out/evaluate/summary.json, $out/search_evaluate/summary.json and $out/neural_step/curve.md"
