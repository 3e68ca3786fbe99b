#!/bin/bash
# The NACA 0012 grid study of docs/validation/rans.md: TMR's sharp-TE NACA 0012 at M 0.15,
# Re 6e6 (SA-neg, point-vortex far field at 100 chords) on three O-grids of one family (each
# doubles the cells in both directions and halves the first-cell height), from
# cases/airfoil/naca0012_rans.yaml. The coarse grid runs 8000 cycles (its residual history), the
# medium 6000, the fine grid stops on the Cauchy test of CL and CD (at most 5000 cycles).
# ALPHA (default 10) sets the angle of attack. Writes one run folder per grid into OUT (default
# /tmp/surrox-rans-naca); scripts/figures/rans_naca0012.py draws the figures from them.
# Time measured on the 2-core development machine (2026-11-26, the shipped case: line_implicit,
# clustered near wake): the coarse grid ~1 min, the medium ~2 min, the fine grid stopped by the
# Cauchy test after 2468 cycles in 437 s (one rank, beside another run). LEVELS=4 adds the
# 1024 × 512 grid (first cell 5e-7): 4796 cycles to the Cauchy test, 82 min.
set -euo pipefail
BIN=${BIN:-build/release/apps/surrox}
CASE=cases/airfoil/naca0012_rans.yaml
ALPHA=${ALPHA:-10}
OUT=${1:-/tmp/surrox-rans-naca}
mkdir -p "$OUT"
grids=("128 64 4e-6 8000 residual" "256 128 2e-6 6000 residual" "512 256 1e-6 5000 [cl,cd]")
[ "${LEVELS:-3}" = 4 ] && grids+=("1024 512 5e-7 8000 [cl,cd]")
for grid in "${grids[@]}"; do
  read -r ni nj h n stop <<< "$grid"
  run="$OUT/a${ALPHA}_${ni}x${nj}"
  [ -s "$run/summary.json" ] && continue
  nice -n 10 "$BIN" run "$CASE" -o "$run" --log-level warn \
    --set solver.alpha_deg="$ALPHA" --set solver.mesh.cells_around="$ni" \
    --set solver.mesh.cells_normal="$nj" --set solver.mesh.first_cell_height="$h" \
    --set solver.max_iterations="$n" --set "solver.convergence.stop_on=$stop" \
    --set output.monitor_interval=1 --set output.vtk=false || true
  /usr/bin/python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(sys.argv[2], {k: s[k] for k in ('iterations','cl','cd','cd_pressure','cd_friction','final_residual')})" "$run/summary.json" "${ni}x${nj}"
done
