#!/bin/bash
# Side-by-side training throughput: surrox's trainer (bench_train) against Python PyTorch
# (train_bench.py, Debian's python3-torch on the same LibTorch 1.13) on the same MLP, batch,
# optimizer and data size; median of N runs each, on 1 and 2 threads. Data-parallel efficiency
# (1 against 2 MPI ranks) is bench/training/data_parallel_efficiency.sh.
#
# Usage: bench/training/compare_pytorch.sh [build dir] [repeats] [rows]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/release}
repeats=${2:-3}
rows=${3:-131072}
bench="$build/bench/training/bench_train"
python=/usr/bin/python3
$python -c "import torch" 2> /dev/null || { echo "python3-torch is not installed: apt-get install python3-torch"; exit 1; }

source "$root/bench/common.sh"  # median
rate() { $python -c "import json,sys; print(json.loads(sys.stdin.readlines()[-1])['samples_per_second'])"; }

printf "%-34s %14s %14s %8s\n" "configuration" "surrox (/s)" "pytorch (/s)" "ratio"
for threads in 1 2; do
  s=$(for r in $(seq "$repeats"); do "$bench" "$rows" 1024 3 "$threads" | rate; done | median)
  p=$(for r in $(seq "$repeats"); do $python "$root/bench/training/train_bench.py" "$rows" 1024 3 "$threads" | rate; done | median)
  printf "%-34s %14.0f %14.0f %8.3f\n" "MLP 4x256, batch 1024, $threads thread(s)" "$s" "$p" \
    "$($python -c "print($s / $p)")"
done
