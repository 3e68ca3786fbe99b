#!/bin/bash
# Issue 11's convergence targets, side by side: cycles and wall time to 8 orders of the default
# airfoil cases (NACA 0012 Euler, Joukowski Euler, laminar NACA 0012; 256 x 128) with today's
# case files against the solver of 2026-11-22, on 1 and 2 ranks.
#
# Usage: bench/airfoil/convergence_against_2026_11_22.sh [SURROX] [REPETITIONS]
#   SURROX       default build/release/apps/surrox
#   REPETITIONS  default 3 (old and new runs alternate, medians of both wall times; cycles are
#                deterministic)
# Environment: WORK (scratch folder, default /tmp/surrox-bench-convergence, emptied first),
#   MPIRUN (default "mpirun --allow-run-as-root --oversubscribe"), EXTRA (more --set options
#   for the new runs, e.g. "--set solver.acceleration.depth=0"), CASES (the case names, default
#   "naca0012_euler joukowski_euler naca0012_laminar").
#
# The 2026-11-22 solver is today's with its settings of that day: LU-SGS with the frozen wall
# ghost (smoother {type: lusgs, wall_mirror: 0}), the one-sided coarse-grid correction at the
# wall, the 50-cycle CFL ramp and no acceleration; it takes exactly the 1161 / 2242 / 1210 cycles
# recorded then (docs/validation/airfoil.md, section 5). Wall time is summary.json's
# wall_time_s (the whole run: grid, solve, output) of each run, one run at a time.
# Prints one row per case and rank count: cycles old -> new, wall old -> new (medians), ratios.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SURROX=${1:-$ROOT/build/release/apps/surrox}
REPS=${2:-3}
WORK=${WORK:-/tmp/surrox-bench-convergence}
MPIRUN=${MPIRUN:-mpirun --allow-run-as-root --oversubscribe}
read -r -a EXTRA_ARGS <<< "${EXTRA:-}"
rm -rf "$WORK" && mkdir -p "$WORK"

OLD=(--set 'solver.smoother={type: lusgs, wall_mirror: 0}' --set solver.multigrid_wall=one_sided
     --set solver.cfl_ramp=50 --set solver.acceleration.depth=0)

# run NAME RANKS ARGS...: one run into $WORK/NAME; prints "cycles wall_s cl cd".
run() {
  local name=$1 ranks=$2
  shift 2
  local launch=()
  [ "$ranks" -gt 1 ] && read -r -a launch <<< "$MPIRUN -n $ranks"
  "${launch[@]}" "$SURROX" run "$@" -o "$WORK/$name" --log-level warn --set output.vtk=false \
    > "$WORK/$name.log" 2>&1 || { echo "run $name failed: see $WORK/$name.log" >&2; exit 1; }
  python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
a = s['results']['airfoil']
print(int(a['iterations']), s['wall_time_s'], repr(a['cl']), repr(a['cd']))" "$WORK/$name/summary.json"
}

median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

printf '%-18s %5s %16s %22s %8s %8s %12s %12s\n' case ranks "cycles old->new" "wall old->new (s)" \
  cycles wall "dCl" "dCd"
for case in ${CASES:-naca0012_euler joukowski_euler naca0012_laminar}; do
  for ranks in 1 2; do
    # Alternating, so that a slow spell of a shared machine falls on both solvers alike.
    walls_old=() walls=()
    for rep in $(seq "$REPS"); do
      read -r c_old w cl_old cd_old < <(run "${case}_old_${ranks}_$rep" "$ranks" \
        "$ROOT/cases/airfoil/$case.yaml" "${OLD[@]}")
      walls_old+=("$w")
      read -r c_new w cl_new cd_new < <(run "${case}_new_${ranks}_$rep" "$ranks" \
        "$ROOT/cases/airfoil/$case.yaml" "${EXTRA_ARGS[@]}")
      walls+=("$w")
    done
    w_old=$(median "${walls_old[@]}") w_new=$(median "${walls[@]}")
    python3 -c "
import sys
case, ranks, co, cn, wo, wn, clo, cln, cdo, cdn = sys.argv[1:]
print('%-18s %5s %7s -> %-6s %10.2f -> %-8.2f %8.3f %8.3f %12.1e %12.1e' % (case, ranks, co, cn,
      float(wo), float(wn), int(cn) / int(co), float(wn) / float(wo), float(cln) - float(clo),
      float(cdn) - float(cdo)))" "$case" "$ranks" "$c_old" "$c_new" "$w_old" "$w_new" \
      "$cl_old" "$cl_new" "$cd_old" "$cd_new"
  done
done
