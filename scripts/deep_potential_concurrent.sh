#!/usr/bin/env bash
# Concurrent learning of a deep potential (DP-GEN's loop in one command, issue 12), in OUT:
#   1. reference MD (Stillinger–Weber silicon, 64 atoms, cases/deep_potential/si_reference.yaml):
#      the initial frames, crystal at 300 and 600 K; held-out trajectories (other seeds) of the
#      crystal at 900 and 1500 K, temperatures the initial frames do not cover;
#   2. `surrox concurrent-learn cases/deep_potential/si_concurrent.yml` under mpirun with RANKS
#      ranks (the four models, and the four exploration temperatures 600–1500 K, are spread over
#      them): train, explore, label, retrain;
#   3. OUT/concurrent_learning.png (scripts/figures/deep_potential_concurrent.py) and the table.
# Usage: scripts/deep_potential_concurrent.sh OUT [ITERATIONS]   (default: the config's)
#        RANKS=N (default 2). Running it again on the same OUT continues the loop.
# Needs a built surrox and Debian's python3-matplotlib.
set -euo pipefail
out=${1:?usage: scripts/deep_potential_concurrent.sh OUT [ITERATIONS]}
here=$(cd "$(dirname "$0")/.." && pwd)
surrox=${SURROX:-$here/build/release/apps/surrox}
ranks=${RANKS:-2}
case=$here/cases/deep_potential/si_reference.yaml
mkdir -p "$out/ref"
reference() {  # name temperature seed
  [ -f "$out/ref/$1/summary.json" ] && return
  "$surrox" run "$case" -o "$out/ref/$1" --log-level warn \
    --set solver.integrator.temperature="$2" --set solver.velocity.temperature="$2" \
    --set solver.integrator.seed="$3" --set solver.velocity.seed=$(($3 * 7 + 1))
}
reference c300 300 300
reference c600 600 600
reference c900h 900 901
reference c1500h 1500 1501
extra=()
[ -n "${2:-}" ] && extra+=(--set "iterations=$2")
mpi=()
if [ "$ranks" -gt 1 ]; then
  mpi=(mpirun -np "$ranks")
  [ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
fi
"${mpi[@]}" "$surrox" concurrent-learn "$here/cases/deep_potential/si_concurrent.yml" -o "$out/learn" \
  --set "data.initial=[$out/ref/c300/deepmd,$out/ref/c600/deepmd]" \
  --set "data.validation=[$out/ref/c900h/deepmd,$out/ref/c1500h/deepmd]" "${extra[@]}"
/usr/bin/python3 "$here/scripts/figures/deep_potential_concurrent.py" "$out/learn"
column -s, -t < "$out/learn/iterations.csv"
