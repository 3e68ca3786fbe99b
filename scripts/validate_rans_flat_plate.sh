#!/bin/bash
# The flat-plate grid study of docs/validation/rans.md: TMR's zero-pressure-gradient flat plate
# (M 0.2, Re 5e6 per unit length, SA-neg) on three grids of one family (each doubles the cells
# in both directions and halves the leading-edge and wall spacings), through the flat-plate test
# binary's SURROX_PLATE hook. Writes LOG files and the profile at x = 0.97 into OUT (default
# /tmp/surrox-rans-plate); scripts/figures/rans.py draws the figures from them.
# Time on the 2-core development machine: about 1, 2 and 12 minutes.
set -euo pipefail
BIN=${BIN:-build/release/tests/surrox_tests_airfoil}
OUT=${1:-/tmp/surrox-rans-plate}
mkdir -p "$OUT"
for grid in "8 24 24 4000" "16 48 48 8000" "32 96 96 8000"; do
  name=$(echo "$grid" | tr ' ' _)
  [ -s "$OUT/grid_$name.log" ] && continue
  SURROX_PLATE="$grid" "$BIN" --gtest_filter=FlatPlateRans.SkinFriction* > "$OUT/grid_$name.log.part" 2>&1 || true
  mv "$OUT/grid_$name.log.part" "$OUT/grid_$name.log"
  grep '^grid' "$OUT/grid_$name.log"
done
