#!/usr/bin/env bash
# The OpenFOAM airFoil2D family of issue 40 (docs/validation/openfoam_airfoil.md): field
# surrogates trained on another solver's output, read from OpenFOAM case folders directly.
#   1. 24 cases of Debian's simpleFoam airFoil2D tutorial (openfoam-examples; Spalart–Allmaras,
#      10,720 cells), α ∈ [-2°, 10°] and |U| ∈ [15, 35] m/s from cases/openfoam/airfoil2d_design.py
#      (20 train, 4 held out between them), each run by simpleFoam to its residualControl;
#   2. `surrox train cases/openfoam/train.yml` on OUT/manifest.csv;
#   3. `surrox evaluate` on OUT/heldout.csv: the model next to the nearest-case and
#      inverse-distance baselines (summary.json, case_errors.csv, errors.md);
#   4. the warm start: simpleFoam iterations to residualControl from the tutorial's uniform start,
#      from `surrox predict --openfoam` and from an inverse-distance start (OUT/warm_start.csv);
#   5. figures (scripts/figures/openfoam_airfoil.py): OUT/fields.png, OUT/errors.png.
# Needs a built surrox (scripts/build.sh), OpenFOAM v1912 and openfoam-examples (the bootstrap
# installs both) and python3-matplotlib for the figures. A rerun keeps finished simpleFoam cases.
#
# Usage: scripts/openfoam_airfoil.sh [OUT]        (default out/openfoam_airfoil)
#        SURROX=path/to/surrox TRAIN_SET='training.epochs=20' scripts/openfoam_airfoil.sh
#        FROM_STEP=4 scripts/openfoam_airfoil.sh OUT   (warm starts and figures of a finished run)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
surrox="${SURROX:-$root/build/${SURROX_PRESET:-release}/apps/surrox}"
out="$(mkdir -p "${1:-$root/out/openfoam_airfoil}" && cd "${1:-$root/out/openfoam_airfoil}" && pwd)"
tutorial=/usr/share/doc/openfoam-examples/examples/incompressible/simpleFoam/airFoil2D
[ -x "$surrox" ] || { echo "openfoam_airfoil: no surrox at $surrox; build first (scripts/build.sh)" >&2; exit 2; }
[ -d "$tutorial" ] || { echo "openfoam_airfoil: no $tutorial; apt-get install openfoam-examples" >&2; exit 2; }
# OpenFOAM's bashrc reads unset variables.
set +u
# shellcheck disable=SC1091
source /usr/share/openfoam/etc/bashrc 2>/dev/null
set -u
start=$(date +%s)
stamp() { echo "openfoam_airfoil: $1 ($(( $(date +%s) - start )) s)"; }

# A copy of the tutorial at free stream (ux, uy), writing only its last (converged) time.
make_case() {  # folder ux uy
  local dir="$1"
  rm -rf "$dir.partial" && cp -r "$tutorial" "$dir.partial" && chmod -R u+w "$dir.partial"
  sed -i "s/^internalField .*/internalField   uniform ($2 $3 0);/" "$dir.partial/0/U"
  sed -i -e 's/^endTime .*/endTime         3000;/' -e 's/^writeInterval .*/writeInterval   100000;/' \
    "$dir.partial/system/controlDict"
  rm -f "$dir.partial/Allrun" "$dir.partial/Allclean"
}
# simpleFoam in a case folder; prints the iterations it took and whether residualControl held.
run_simple() {  # folder
  (cd "$1" && simpleFoam > log.simpleFoam 2>&1 < /dev/null)
  local converged
  converged=$(grep -o "SIMPLE solution converged in [0-9]*" "$1/log.simpleFoam" | grep -o "[0-9]*$" || true)
  if [ -n "$converged" ]; then echo "$converged 1"; else echo "$(grep -c '^Time = ' "$1/log.simpleFoam") 0"; fi
}

stamp "1/5 simpleFoam cases → $out/cases"
mkdir -p "$out/cases"
/usr/bin/python3 "$root/cases/openfoam/airfoil2d_design.py" "$out"
echo "file,alpha,speed" > "$out/manifest.csv.partial"
echo "file,alpha,speed" > "$out/heldout.csv.partial"
echo "name,split,alpha,speed,iterations,converged" > "$out/cold.csv.partial"
tail -n +2 "$out/design.csv" | while IFS=, read -r name split alpha speed ux uy; do
  dir="$out/cases/$name"
  if [ ! -f "$dir/cold.txt" ]; then
    make_case "$dir" "$ux" "$uy"
    result=$(run_simple "$dir.partial")
    rm -rf "$dir" && mv "$dir.partial" "$dir" && echo "$result" > "$dir/cold.txt"
  fi
  read -r iterations converged < "$dir/cold.txt"
  [ "$converged" = 1 ] || echo "openfoam_airfoil: $name did not reach residualControl in $iterations iterations" >&2
  echo "$name,$split,$alpha,$speed,$iterations,$converged" >> "$out/cold.csv.partial"
  list="$out/manifest.csv.partial"; [ "$split" = heldout ] && list="$out/heldout.csv.partial"
  echo "cases/$name,$alpha,$speed" >> "$list"
done
for f in manifest.csv heldout.csv cold.csv; do mv "$out/$f.partial" "$out/$f"; done

from_step="${FROM_STEP:-1}"
if [ "$from_step" -le 2 ]; then
stamp "2/5 training → $out/train"
# TRAIN_SET: extra --set overrides, e.g. TRAIN_SET='training.epochs=20' for a quick run.
train_sets=(--set "data.files=$out/manifest.csv")
for s in ${TRAIN_SET:-}; do train_sets+=(--set "$s"); done
"$surrox" train "$root/cases/openfoam/train.yml" -o "$out/train" "${train_sets[@]}" \
  --log-level warn > "$out/train.log" 2>&1 ||
  { echo "openfoam_airfoil: training failed; see $out/train.log" >&2; exit 1; }

stamp "3/5 evaluation on the held-out cases → $out/evaluate"
# The training cases are listed too: the baselines interpolate them.
{ cat "$out/manifest.csv"; tail -n +2 "$out/heldout.csv"; } > "$out/all.csv"
"$surrox" evaluate "$out/train/model.pt" "$out/all.csv" -o "$out/evaluate" --log-level warn
/usr/bin/python3 "$root/scripts/openfoam_airfoil.py" similarity "$out"
fi

stamp "4/5 warm starts → $out/warm"
mkdir -p "$out/warm"
echo "name,start,iterations,converged,difference_U,difference_p" > "$out/warm_start.csv.partial"
tail -n +2 "$out/design.csv" | while IFS=, read -r name split alpha speed ux uy; do
  [ "$split" = heldout ] || continue
  read -r iterations converged < "$out/cases/$name/cold.txt"
  echo "$name,uniform,$iterations,$converged,0,0" >> "$out/warm_start.csv.partial"
  # The model's prediction as the initial fields (surrox predict --openfoam).
  printf 'file,alpha,speed\n%s,%s,%s\n' "$out/cases/$name" "$alpha" "$speed" > "$out/warm/$name.csv"
  rm -rf "$out/warm/$name.model"
  "$surrox" predict "$out/train/model.pt" "$out/warm/$name.csv" -o "$out/warm/$name.model" \
    --openfoam --log-level warn < /dev/null
  # The inverse-distance interpolation of the training cases (speed scaled out) instead.
  make_case "$out/warm/$name.idw" "$ux" "$uy"
  rm -rf "$out/warm/$name.idw" && mv "$out/warm/$name.idw.partial" "$out/warm/$name.idw"
  /usr/bin/python3 "$root/scripts/openfoam_airfoil.py" start "$out" "$name" "$out/warm/$name.idw"
  for start_kind in model idw; do
    dir="$out/warm/$name.$start_kind"; [ "$start_kind" = model ] && dir="$dir/case"
    read -r iterations converged <<< "$(run_simple "$dir")"
    # How far the warm-started converged fields are from the cold run's (relative L2).
    difference=$(/usr/bin/python3 "$root/scripts/openfoam_airfoil.py" compare "$out/cases/$name" "$dir")
    echo "$name,$start_kind,$iterations,$converged,$difference" >> "$out/warm_start.csv.partial"
  done
done
mv "$out/warm_start.csv.partial" "$out/warm_start.csv"
column -ts, "$out/warm_start.csv"

stamp "5/5 figures"
/usr/bin/python3 "$root/scripts/figures/openfoam_airfoil.py" "$out" ||
  echo "openfoam_airfoil: figures skipped (python3-matplotlib missing?)" >&2
stamp "done"
