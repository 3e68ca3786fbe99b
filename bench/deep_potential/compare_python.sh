#!/bin/bash
# surrox's deep-potential inference (C++ LibTorch) against the same network and descriptor run by
# Debian's python3-torch (the same LibTorch 1.13.1 underneath), side by side on one thread:
# bench_deep_potential (uncompressed model, 512 and 4096 atoms) writes its model and frames
# (SURROX_DP_DUMP), python_reference.py evaluates them (forces checked against the C++ ones), in
# alternating rounds; medians of the CPU time per atom-step and the ratio python/surrox.
#   network  evaluation from given neighbour slots (both sides);
#   step     python: a torch neighbour search on every call (as DeePMD-kit's PyTorch backend)
#            plus the evaluation, against surrox's evaluation on the MD engine's reused list.
# Needs a build with -DSURROX_BUILD_BENCH=ON (target bench_deep_potential).
#
# Usage: bench/deep_potential/compare_python.sh [build dir] [rounds]   (defaults build/release, 3)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/release}
rounds=${2:-3}
bench=$build/bench/deep_potential/bench_deep_potential
[ -x "$bench" ] || { echo "no $bench: configure with -DSURROX_BUILD_BENCH=ON and build bench_deep_potential"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1
for r in $(seq "$rounds"); do
  SURROX_DP_DUMP="$work/frames" "$bench" --benchmark_filter=Full --benchmark_min_time=1 \
    --benchmark_format=json > "$work/cpp_$r.json" 2> /dev/null
  /usr/bin/python3 "$root/bench/deep_potential/python_reference.py" "$work/frames" --repeats 3 \
    > "$work/python_$r.jsonl"
done
/usr/bin/python3 - "$work" "$rounds" <<'PY'
import json, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
cpp, py = {}, {}
for r in range(1, rounds + 1):
    for b in json.load(open(f"{work}/cpp_{r}.json"))["benchmarks"]:
        atoms = int(b["atoms"])
        cpp.setdefault(atoms, []).append(b["cpu_time"] * 1e3 / atoms)  # ms → µs per atom
    for line in open(f"{work}/python_{r}.jsonl"):
        j = json.loads(line)
        py.setdefault(j["atoms"], []).append(j)
print(f"{'atoms':>6} {'surrox µs':>10} {'python net µs':>14} {'ratio':>6} {'python step µs':>15} {'ratio':>6} {'max |ΔF|':>9}")
for atoms in sorted(cpp):
    c = statistics.median(cpp[atoms])
    n = statistics.median(j["network_us_per_atom_step"] for j in py[atoms])
    s = statistics.median(j["step_us_per_atom_step"] for j in py[atoms])
    df = max(j["max_force_difference"] for j in py[atoms])
    print(f"{atoms:>6} {c:>10.1f} {n:>14.1f} {n / c:>6.2f} {s:>15.1f} {s / c:>6.2f} {df:>9.1e}")
print(f"(CPU time per atom-step, medians of {rounds} rounds; ratio = python / surrox)")
PY
