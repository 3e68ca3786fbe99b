#!/bin/bash
# Data-parallel efficiency of surrox's trainer: bench_train on 1 rank and on 2 MPI ranks (1
# torch thread each, the same global batch split over the ranks), runs interleaved, medians of
# N; efficiency = 2-rank samples/s ÷ (2 × 1-rank samples/s). Both ways of summing host
# gradients are measured: MPI's allreduce (the default) and the c10d Gloo process group.
# The load average is printed before and after: measure on an otherwise idle machine.
#
# Usage: bench/training/data_parallel_efficiency.sh [build dir] [repeats] [rows] [batches...]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/release}
repeats=${2:-3}
rows=${3:-65536}
shift $(($# < 3 ? $# : 3))
batches=(1024 4096)
(($# > 0)) && batches=("$@")
bench="$build/bench/training/bench_train"
[[ -x $bench ]] || { echo "no $bench: build the bench_train target"; exit 1; }
mpirun="mpirun --allow-run-as-root --oversubscribe"

source "$root/bench/common.sh"  # median
rate() { tail -n 1 | sed -n 's/.*"samples_per_second": \([0-9.]*\).*/\1/p'; }

# Idle share of all CPUs over 2 s, from /proc/stat.
idle_percent() {
  local a b
  read -r -a a < /proc/stat; sleep 2; read -r -a b < /proc/stat
  local total=0 idle=$(( b[4] + b[5] - a[4] - a[5] ))
  for i in 1 2 3 4 5 6 7 8; do total=$(( total + b[i] - a[i] )); done
  echo $(( 100 * idle / total ))
}

echo "before: load average $(cut -d' ' -f1-3 /proc/loadavg), CPUs $(idle_percent) % idle"
printf "%-6s %-10s %14s %14s %11s   %s\n" "batch" "transport" "1 rank (/s)" "2 ranks (/s)" "efficiency" "runs (2 ranks)"
for batch in "${batches[@]}"; do
  one=() mpi=() gloo=()
  for r in $(seq "$repeats"); do
    one+=("$("$bench" "$rows" "$batch" 3 1 | rate)")
    mpi+=("$($mpirun -n 2 "$bench" "$rows" "$batch" 3 1 mpi | rate)")
    gloo+=("$($mpirun -n 2 "$bench" "$rows" "$batch" 3 1 gloo | rate)")
  done
  m1=$(printf "%s\n" "${one[@]}" | median)
  echo "$batch   1 rank runs: ${one[*]}"
  for transport in mpi gloo; do
    declare -n runs=$transport
    m2=$(printf "%s\n" "${runs[@]}" | median)
    printf "%-6s %-10s %14.0f %14.0f %10.1f%%   %s\n" "$batch" "$transport" "$m1" "$m2" \
      "$(awk "BEGIN {print 100 * $m2 / (2 * $m1)}")" "${runs[*]}"
  done
done
echo "after: load average $(cut -d' ' -f1-3 /proc/loadavg), CPUs $(idle_percent) % idle"
