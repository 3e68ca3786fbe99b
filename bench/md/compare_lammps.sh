#!/bin/bash
# Side-by-side timing of surrox and LAMMPS (lmp) on the same MD benchmarks, median of N runs:
#   lj: LAMMPS bench/in.lj (bench/md/in.lj) vs cases/md/lj_benchmark.yaml (32,000 atoms, 100 steps)
#   sw: bench/md/in.sw vs cases/md/sw_benchmark.yaml (32,768 Si atoms, 100 steps)
# Times are the time-stepping loops (LAMMPS "Loop time", surrox summary.json timings_s.advance),
# with each code's split into force, neighbour lists, communication/ghosts and integration.
# With RANKS=2, both codes also run on 2 MPI ranks (spatial decomposition) for the scaling.
#
# Usage: bench/md/compare_lammps.sh [path/to/surrox] [repeats]
#   e.g. bench/md/compare_lammps.sh build/release/apps/surrox 3
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
surrox=$(realpath "${1:-$root/build/release/apps/surrox}")
repeats=${2:-3}
command -v lmp > /dev/null || { echo "lmp (LAMMPS) is not installed: apt-get install lammps"; exit 1; }
source "$root/bench/common.sh"  # surrox_timings
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root/bench/md/in.lj" "$root/bench/md/in.sw" "$root/tests/md/Si.sw" "$work/"

run_lammps() {  # name, ranks, run index → prints "loop pair neigh comm modify"
  local name=$1 ranks=$2 r=$3 log="$work/lammps_$1_np$2_$3.log"
  if [ "$ranks" -gt 1 ]; then
    (cd "$work" && mpirun --allow-run-as-root --oversubscribe -np "$ranks" lmp -screen none -log "$log" -in "in.$name")
  else
    (cd "$work" && lmp -screen none -log "$log" -in "in.$name")
  fi
  python3 - "$log" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
loop = float(re.search(r"Loop time of ([0-9.eE+-]+)", text).group(1))
split = {}
for name in ("Pair", "Neigh", "Comm", "Modify", "Other", "Output"):
    m = re.search(r"^%s\s*\|\s*([0-9.eE+-]+)\s*\|\s*([0-9.eE+-]+)\s*\|\s*([0-9.eE+-]+)" % name, text, re.M)
    split[name] = float(m.group(2)) if m else 0.0
print(loop, split["Pair"], split["Neigh"], split["Comm"], split["Modify"])
PY
}

run_surrox() {  # case, run index, [ranks] → prints "loop force neighbor comm integrate"
  local out="$work/surrox_$1_$2_np${3:-1}"
  local launch=""
  if [ "${3:-1}" -gt 1 ]; then launch="mpirun --allow-run-as-root --oversubscribe -np $3"; fi
  $launch "$surrox" run "$root/cases/md/$1_benchmark.yaml" -o "$out" > "$out.log" 2>&1 || { cat "$out.log"; exit 1; }
  surrox_timings "$out/summary.json" advance solver_force solver_neighbor solver_comm \
    solver_integrate solver_thermo | awk '{print $1, $2, $3, $4, $5 + $6}'
}

median() { python3 -c "import sys, statistics; rows=[list(map(float, l.split())) for l in sys.stdin if l.strip()]; \
m=sorted(rows)[len(rows)//2]; print(' '.join('%.4f' % v for v in m))"; }

for name in lj sw; do
  lammps=$(for r in $(seq "$repeats"); do run_lammps "$name" 1 "$r"; done | median)
  ours=$(for r in $(seq "$repeats"); do run_surrox "$name" "$r"; done | median)
  read -r l_loop l_pair l_neigh l_comm l_modify <<< "$lammps"
  read -r s_loop s_force s_neigh s_comm s_integrate <<< "$ours"
  echo "== $name: median of $repeats runs, 1 rank =="
  printf "  %-8s loop %7.3f s   force %7.3f   neighbor %7.3f   comm/ghosts %7.3f   integrate %7.3f\n" \
    LAMMPS "$l_loop" "$l_pair" "$l_neigh" "$l_comm" "$l_modify"
  printf "  %-8s loop %7.3f s   force %7.3f   neighbor %7.3f   comm/ghosts %7.3f   integrate %7.3f\n" \
    surrox "$s_loop" "$s_force" "$s_neigh" "$s_comm" "$s_integrate"
  python3 -c "print('  ratio surrox/LAMMPS = %.3f' % ($s_loop / $l_loop))"
  if [ "${RANKS:-1}" -gt 1 ]; then
    lammps2=$(for r in $(seq "$repeats"); do run_lammps "$name" "$RANKS" "$r"; done | median)
    ours2=$(for r in $(seq "$repeats"); do run_surrox "$name" "$r" "$RANKS"; done | median)
    read -r l2_loop _ <<< "$lammps2"
    read -r s2_loop _ <<< "$ours2"
    python3 -c "print('  $RANKS ranks: LAMMPS loop %.3f s (speed-up %.2f), surrox loop %.3f s (speed-up %.2f), ratio %.3f' % ($l2_loop, $l_loop / $l2_loop, $s2_loop, $s_loop / $s2_loop, $s2_loop / $l2_loop))"
  fi
done
