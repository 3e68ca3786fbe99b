#!/bin/bash
# The NACA 0012 lift curve of docs/validation/rans.md ("The lift curve"): the sweep of
# cases/airfoil/naca0012_rans_lift_curve.yaml (α −4° to 18° in 2° steps plus 15°, one case file,
# the solver's RANS defaults, every angle from the free stream) on 256 × 128 and, with
# GRIDS="256 512", also on 512 × 256 (first cell 1e-6). Cases run side by side on RANKS ranks
# (default 2; the sweep gives case i to rank i mod RANKS). A case that diverges is recorded as
# failed by the sweep (cases/<name>/case.json, its diagnosis and last checkpoint kept) and drawn
# as missing. Then scripts/figures/rans_lift_curve.py draws CL(α) and CD(α) against CFL3D's
# values at TMR's angles. Writes OUT (default /tmp/surrox-lift-curve)/<ni>x<nj>/.
# Time measured on the 2-core development machine: docs/validation/rans.md.
set -euo pipefail
BIN=${BIN:-build/release/apps/surrox}
CASE=cases/airfoil/naca0012_rans_lift_curve.yaml
OUT=${1:-/tmp/surrox-lift-curve}
RANKS=${RANKS:-2}
GRIDS=${GRIDS:-256}
for ni in $GRIDS; do
  nj=$((ni / 2))
  h=$(/usr/bin/python3 -c "print(2e-6 * 256 / $ni)")  # the family halves the first cell per doubling
  start=$(date +%s)
  mpirun --allow-run-as-root --oversubscribe -n "$RANKS" nice -n 10 "$BIN" run "$CASE" \
    -o "$OUT/${ni}x${nj}" --log-level warn --set solver.mesh.cells_around="$ni" \
    --set solver.mesh.cells_normal="$nj" --set solver.mesh.first_cell_height="$h" || true
  echo "${ni}x${nj}: $(( $(date +%s) - start )) s"
done
/usr/bin/python3 scripts/figures/rans_lift_curve.py "$OUT"
