#!/bin/bash
# The flat-plate grid study of docs/validation/rans.md: TMR's zero-pressure-gradient flat plate
# (M 0.2, Re 5e6 per unit length, SA-neg), cases/airfoil/flat_plate_rans.yaml on four grids of
# one family (each doubles the cells in both directions and halves the leading-edge and wall
# spacings; the case file's own grid is the second). Each run stops on the Cauchy test of the
# plate's drag (the coarse grid's ν̃ limit cycle never lets it: 4000 cycles). Writes one run
# folder per grid into OUT (default /tmp/surrox-rans-plate); scripts/figures/rans.py draws the
# figures from them.
# Time on the 2-core development machine (line_implicit, one rank, beside another run): 3, 2,
# 10 and 75 s.
set -euo pipefail
BIN=${BIN:-build/release/apps/surrox}
CASE=cases/airfoil/flat_plate_rans.yaml
OUT=${1:-/tmp/surrox-rans-plate}
mkdir -p "$OUT"
for grid in "8 24 24 4e-3 1e-5 4000" "16 48 48 2e-3 5e-6 20000" "32 96 96 1e-3 2.5e-6 20000" \
            "64 192 192 5e-4 1.25e-6 20000"; do
  read -r up plate nj le wall n <<< "$grid"
  run="$OUT/grid_$((up + plate))x$nj"
  [ -s "$run/summary.json" ] && continue
  "$BIN" run "$CASE" -o "$run" --log-level warn \
    --set solver.mesh.cells_upstream="$up" --set solver.mesh.cells_plate="$plate" \
    --set solver.mesh.cells_normal="$nj" --set solver.mesh.leading_edge_spacing="$le" \
    --set solver.mesh.wall_spacing="$wall" --set solver.max_iterations="$n" \
    --set output.monitor_interval=10 --set output.vtk=false || true
done
/usr/bin/python3 scripts/figures/rans.py "$OUT" --print-only
