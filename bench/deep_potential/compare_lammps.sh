#!/bin/bash
# The same deep potential in LAMMPS (surrox-lammps, pair_style surrox/deep) and in surrox's own
# MD engine (`pair: {type: deep}`), side by side: diamond silicon at 1000 K, NVE, 1 fs steps,
# 512 and 4096 atoms, 1 rank and (RANKS=2) 2 ranks; median of REPEATS runs of each.
# Prints µs per atom-step of each code's time-stepping loop (LAMMPS "Loop time", surrox
# summary.json timings_s.advance) and the ratio LAMMPS / surrox (goal ≤ 1.1: the pair style
# adds no cost of its own beyond LAMMPS's integration and communication).
#
# MODEL: a model.pt (e.g. scripts/deep_potential.sh's OUT/compressed/model.pt). Without it the
# script makes one with the shipped architecture (cases/deep_potential/si_train.yml: se_e2_a +
# se_e3, rcut 5 Å) by 20 training steps on a short SW run, and its compressed form: the cost
# per atom-step depends on the architecture and tables, not on the weights' values. It makes
# each in float64 and with float32 nets (model.precision), so the rows also compare precisions:
# the last table prints float32 / float64 µs per atom-step for each code.
# CELLS: lattice cells per side (default "4 8": 512 and 4096 atoms).
#
# Usage: bench/deep_potential/compare_lammps.sh [MODEL] [REPEATS] [STEPS]
#   RANKS=2 bench/deep_potential/compare_lammps.sh "" 3 20
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
surrox=${SURROX:-$root/build/release/apps/surrox}
driver=${SURROX_LAMMPS:-$root/build/release/lammps/surrox-lammps}
repeats=${2:-3}
steps=${3:-20}
[ -x "$driver" ] || { echo "no $driver: build surrox with liblammps-dev installed"; exit 1; }
source "$root/bench/common.sh"  # median, surrox_timings
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1

models=()
if [ -n "${1:-}" ]; then
  models=("$(realpath "$1")")
else
  echo "making a model of the shipped architecture (20 training steps; weights do not matter for speed)"
  "$surrox" run "$root/cases/deep_potential/si_reference.yaml" -o "$work/ref" --log-level warn \
    --set solver.steps=400 > /dev/null
  for precision in float64 float32; do
    tag=${precision/float/f}
    "$surrox" train "$root/cases/deep_potential/si_train.yml" -o "$work/train_$tag" \
      --log-level warn --set "data.train=[$work/ref/deepmd]" \
      --set "data.validation=[$work/ref/deepmd]" --set training.steps=20 \
      --set model.precision=$precision > /dev/null
    "$surrox" compress "$work/train_$tag/model.pt" -o "$work/compressed_$tag" \
      --log-level warn > /dev/null
    models+=("$work/train_$tag/model.pt" "$work/compressed_$tag/model.pt")
  done
fi

lammps_input() {  # model cells → in.dp
  cat > "$work/in.dp" <<LMP
units metal
atom_modify map array
lattice diamond 5.431
region box block 0 $2 0 $2 0 $2
create_box 1 box
create_atoms 1 box
mass 1 28.06
velocity all create 1000 4928459 loop geom
pair_style surrox/deep $1
pair_coeff * * Si
neighbor 1.0 bin
timestep 0.001
thermo 10
fix nve all nve
run $steps
LMP
}

surrox_case() {  # model cells → dp.yaml
  cat > "$work/dp.yaml" <<YAML
runtime: {threads: 1}
solver:
  type: md
  units: metal
  lattice: {style: diamond, constant: 5.431, replicate: [$2, $2, $2], mass: 28.06}
  velocity: {temperature: 1000, seed: 4928459}
  pair: {type: deep, model: $1}
  neighbor: {skin: 1.0}
  dt: 0.001
  steps: $steps
  thermo: 10
output: {vtk: false, hdf5: false}
YAML
}

launch() {  # ranks
  if [ "$1" -gt 1 ]; then echo "mpirun --allow-run-as-root --oversubscribe -np $1"; fi
}

run_lammps() {  # ranks → loop seconds
  local log="$work/lammps.log"
  (cd "$work" && $(launch "$1") "$driver" -screen none -log "$log" -in in.dp)
  python3 -c "import re,sys; print(re.search(r'Loop time of ([0-9.eE+-]+)', open(sys.argv[1]).read()).group(1))" "$log"
}

run_surrox() {  # ranks → advance seconds
  rm -rf "$work/out"
  $(launch "$1") "$surrox" run "$work/dp.yaml" -o "$work/out" --log-level warn > "$work/surrox.log" 2>&1 ||
    { cat "$work/surrox.log"; exit 1; }
  surrox_timings "$work/out/summary.json" advance
}


rows=$work/rows.txt
printf "%-14s %6s %5s %14s %14s %8s\n" model atoms ranks "LAMMPS µs/a-s" "surrox µs/a-s" ratio
for model in "${models[@]}"; do
  label=$(basename "$(dirname "$model")")
  for cells in ${CELLS:-4 8}; do
    atoms=$((8 * cells * cells * cells))
    lammps_input "$model" "$cells"
    surrox_case "$model" "$cells"
    for ranks in 1 ${RANKS:+$RANKS}; do
      [ "$ranks" = 1 ] || [ "$ranks" -gt 1 ] || continue
      l=$(for r in $(seq "$repeats"); do run_lammps "$ranks"; done | median)
      s=$(for r in $(seq "$repeats"); do run_surrox "$ranks"; done | median)
      python3 -c "
a, n, r = $atoms, $steps, $ranks
l, s = $l, $s
print('%-14s %6d %5d %14.2f %14.2f %8.3f' % ('$label', a, r, 1e6 * l / (a * n), 1e6 * s / (a * n), l / s))" |
        tee -a "$rows"
    done
  done
done
# float32 nets against float64 ones, row by row (only for the models made here: *_f32 / *_f64).
python3 - "$rows" <<'PY'
import sys
rows = {}
for line in open(sys.argv[1]):
    label, atoms, ranks, l, s, _ = line.split()
    rows[(label, atoms, ranks)] = (float(l), float(s))
pairs = [(k, (k[0].replace('_f32', '_f64'),) + k[1:]) for k in rows if k[0].endswith('_f32')]
if pairs:
    print('%-14s %6s %5s %16s %16s' % ('float32/64', 'atoms', 'ranks', 'LAMMPS f32/f64', 'surrox f32/f64'))
for k32, k64 in pairs:
    if k64 in rows:
        (l32, s32), (l64, s64) = rows[k32], rows[k64]
        print('%-14s %6s %5s %16.3f %16.3f' % (k32[0].replace('_f32', ''), k32[1], k32[2], l32 / l64, s32 / s64))
PY
