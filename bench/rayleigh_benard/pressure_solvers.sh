#!/usr/bin/env bash
# The 2D Rayleigh–Bénard pressure solve, PETSc KSP (LU with nested dissection, factored once)
# against FFTW + a tridiagonal solve per mode (solvers/common/fft_tridiagonal_poisson_solver.hpp),
# side by side: the Ra = 1e6 dataset cases (512 × 128, and the stretched 256 × 64) over their
# first 2 time units (both solves are direct: their cost does not depend on the flow), each
# solver run REPEATS times alternately, on RANKS ranks. Prints the median wall time of the whole
# run, of its time steps and of its pressure solves (summary.json results.timings_s: advance,
# solver_pressure) and the ratios fft_tridiagonal / ksp (< 1: the FFT is faster).
#   bash bench/rayleigh_benard/pressure_solvers.sh [OUT] [REPEATS] [RANKS]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:-/tmp/surrox_rb_pressure_bench}"
repeats="${2:-3}"
ranks="${3:-1}"
surrox="$root/build/release/apps/surrox"
launch=()
[ "$ranks" -gt 1 ] && launch=(mpirun --allow-run-as-root --oversubscribe -np "$ranks")
mkdir -p "$out"
source "$root/bench/common.sh"  # median
for case in ra1e6_dataset ra1e6_dataset_256; do
  for r in $(seq "$repeats"); do
    for solver in ksp fft_tridiagonal; do
      dir="$out/$case/$solver.$r"
      rm -rf "$dir"
      "${launch[@]}" "$surrox" run "$root/cases/rayleigh_benard/$case.yaml" -o "$dir" --log-level warn \
        --set solver.end_time=2 --set solver.average_from=0 --set output.interval=2 \
        --set solver.pressure.solver=$solver >/dev/null
    done
  done
  printf '%s (%s ranks, %s runs each, medians):\n' "$case" "$ranks" "$repeats"
  for what in wall advance pressure; do
    line="  $what:"
    declare -A m=()
    for solver in ksp fft_tridiagonal; do
      case $what in
        wall) q='.wall_time_s' ;;
        advance) q='.results.timings_s.advance' ;;
        pressure) q='.results.timings_s.solver_pressure' ;;
      esac
      m[$solver]=$(for f in "$out/$case/$solver".*/summary.json; do jq -r "$q" "$f"; done | median)
      line+=" $solver $(printf '%.3f' "${m[$solver]}") s,"
    done
    ratio=$(awk -v a="${m[fft_tridiagonal]}" -v b="${m[ksp]}" 'BEGIN {printf "%.3f", a / b}')
    echo "$line ratio fft_tridiagonal/ksp $ratio"
  done
done
