#!/bin/bash
# The candidate study of docs/validation/rans.md ("Why CL is 2–3 % high"): TMR's NACA 0012 at
# M 0.15, Re 6e6, α 10° from cases/airfoil/naca0012_rans.yaml (second-order ν̃, clustered near
# wake) with one thing changed per run (the study's baseline is the fanned wake, wake_growth 0), each stopped at 8 orders of the density residual (at most 3000 cycles), and the
# inviscid reference (Euler on the same family; scripts/naca0012_panel_lift.py for the panel
# method). Prints CL, CD and their parts per run; run folders in OUT (default
# /tmp/surrox-rans-candidates). On the shared 2-core machine: 128 × 64 about 30 s a run,
# 256 × 128 3–6 min, 512 × 128 and 256 × 256 about 10 min. RUNS (default all) selects by name.
set -euo pipefail
BIN=${BIN:-build/release/apps/surrox}
CASE=cases/airfoil/naca0012_rans.yaml
OUT=${1:-/tmp/surrox-rans-candidates}
mkdir -p "$OUT"
FO="--set solver.turbulence.convection=first_order --set solver.mesh.wake_growth=0"
NOWAKE="--set solver.mesh.wake_growth=0"
TANH="--set solver.mesh.surface_spacing=tanh --set solver.mesh.leading_edge_spacing=1.5e-4"
run() {  # name case ni nj first_cell_height [--set ...]
  local name=$1 case=$2 ni=$3 nj=$4 h=$5
  shift 5
  [[ -n "${RUNS:-}" && " $RUNS " != *" $name "* ]] && return 0
  if [ ! -s "$OUT/$name/summary.json" ]; then
    nice -n 10 "$BIN" run "$case" -o "$OUT/$name" --log-level warn \
      --set solver.max_iterations=3000 --set solver.mesh.cells_around="$ni" \
      --set solver.mesh.cells_normal="$nj" --set solver.mesh.first_cell_height="$h" \
      --set 'solver.convergence.stop_on=[residual]' --set output.vtk=false "$@" || true
  fi
  /usr/bin/python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['results']['airfoil']; \
print(sys.argv[2], {k: s[k] for k in ('iterations','cl','cd','cd_pressure','cd_friction','final_residual')})" \
    "$OUT/$name/summary.json" "$name"
}
# ν̃ convection on two grids.
run g1_first "$CASE" 128 64 4e-6 $FO
run g1_second "$CASE" 128 64 4e-6 $NOWAKE
run g2_first "$CASE" 256 128 2e-6 $FO
run g2_second "$CASE" 256 128 2e-6 $NOWAKE
# One direction at a time.
run g2_around "$CASE" 512 128 2e-6 $FO
run g2_normal "$CASE" 256 256 1e-6 $FO
# Model, free-stream ν̃, far field, limiter.
run g1_sa "$CASE" 128 64 4e-6 $FO --set solver.turbulence.model=sa
run g1_ratio1 "$CASE" 128 64 4e-6 $FO --set solver.turbulence.nu_tilde_ratio=1
run g1_ratio5 "$CASE" 128 64 4e-6 $FO --set solver.turbulence.nu_tilde_ratio=5
run g1_far300 "$CASE" 128 64 4e-6 $NOWAKE --set solver.mesh.farfield_radius=300
run g2_far300 "$CASE" 256 128 2e-6 $NOWAKE --set solver.mesh.farfield_radius=300
run g1_minmod "$CASE" 128 64 4e-6 $NOWAKE --set solver.limiter=minmod
run g1_van_leer "$CASE" 128 64 4e-6 $NOWAKE --set solver.limiter=van_leer
# Trailing-edge spacing at fixed cells (tanh), and the grid smoothing (the near wake).
for te in 6e-4 1.5e-4 3.8e-5 1e-5; do
  run "g2_te$te" "$CASE" 256 128 2e-6 $FO $TANH --set solver.mesh.trailing_edge_spacing=$te
done
for s in 0 0.5 2; do run "g2_smoothing$s" "$CASE" 256 128 2e-6 $NOWAKE --set solver.mesh.smoothing=$s; done
# The clustered near wake (the shipped case), second- and first-order ν̃.
run g1_wake "$CASE" 128 64 4e-6
run g1_wake_first "$CASE" 128 64 4e-6 --set solver.turbulence.convection=first_order
run g2_wake "$CASE" 256 128 2e-6
run g2_wake_first "$CASE" 256 128 2e-6 --set solver.turbulence.convection=first_order
run g2_around_wake "$CASE" 512 128 2e-6
# Euler on the same family (no turbulence section, slip wall).
EULER="$OUT/naca0012_euler.yaml"
sed -e 's/equations: rans/equations: euler/' -e '/turbulence:/,/convection:/d' -e '/wake_growth/d' -e '/reynolds:/d' \
  -e "s#file: naca0012_tmr.dat#file: $PWD/cases/airfoil/naca0012_tmr.dat#" "$CASE" > "$EULER"
run euler_g1 "$EULER" 128 64 2e-3
run euler_g2 "$EULER" 256 128 1e-3
run euler_g3 "$EULER" 512 256 5e-4
