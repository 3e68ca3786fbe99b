#!/bin/bash
# Data-parallel MeshfreeFlowNet training: `surrox train` (family super_resolution) on 1 rank and
# on 2 MPI ranks with the same global batch, for each way of combining the gradients
# (training.data_parallel: the default step, the overlapped gradient sum, the sharded optimizer
# state (ZeRO stage 1), both), one torch thread per rank, runs interleaved, medians of N.
# Rate: crops per second of epoch 2 from metrics.csv (epoch 1 is warm-up; no validation split).
# Also prints rank 0's optimizer state (serialized bytes), rank 0's time in the gradient
# collectives per step (gradient_sync_seconds over both epochs ÷ steps) and the crops per CPU
# second of the whole fit over all ranks (training_cpu_seconds): on a shared machine 2 ranks may
# not get 2 cores, and then the wall-clock efficiency measures the share, the CPU one does not.
#
# Usage: bench/super_resolution/data_parallel.sh [build dir] [repeats] [configs] [crops]
#   configs: "default" (cases/super_resolution/train.yml's widths, crop 4×8×8, 128 points,
#            residual at 8, batch 8) and/or "paper" (latent 32, U-Net 16, ImNet 32, crop
#            4×16×16, 64 points, batch 4). Default: "default".
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/release}
repeats=${2:-3}
configs=${3:-default}
crops=${4:-32}
surrox=${SURROX:-$build/apps/surrox}
work=${WORK:-$(mktemp -d /tmp/sr_dp.XXXXXX)}
mpirun="mpirun --allow-run-as-root --oversubscribe"
export OMP_NUM_THREADS=1
[ -x "$surrox" ] || { echo "no $surrox: build the surrox target"; exit 1; }

source "$root/bench/super_resolution/common.sh"  # median, tiny_rb_run
json() { /usr/bin/python3 -c "import json; print(json.load(open('$1/summary.json'))['results']$2)"; }
epoch2() { awk -F, -v n="$2" 'NR == 3 {print n / $5}' "$1/metrics.csv"; }

tiny_rb_run "$work" "$surrox"

declare -A options=(
  [plain]=""
  [overlap]="overlap_gradient_sum: true"
  [zero1]="shard_optimizer_state: true"
  [both]="shard_optimizer_state: true, overlap_gradient_sum: true")
variants=(plain overlap zero1 both)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for config in $configs; do
  case $config in
    default) net=(--set data.crop=[4,8,8]); points=128; batch=8 ;;
    paper) net=(--set network.latent=32 --set network.unet_filters=16 --set network.imnet_filters=32
      --set data.crop=[4,16,16]); points=64; batch=4 ;;
    *) echo "unknown config $config (default, paper)"; exit 2 ;;
  esac
  common=("$root/cases/super_resolution/train.yml" --threads 1 --log-level warn
    --set "data.train=[$work/rb/fields.h5]" --set "data.validation=[]"
    --set data.downsampling.t=1 --set data.downsampling.z=2 --set data.downsampling.x=2
    --set "data.crops_per_run=$crops"
    --set "data.points_per_crop=$points" --set training.epochs=2 --set "training.batch_size=$batch"
    --set training.checkpoint_interval=100 "${net[@]}")
  declare -A rates=() cpu=() sync=()
  one=() one_cpu=()
  steps=$(( 2 * ((crops + batch - 1) / batch) ))
  for r in $(seq "$repeats"); do
    out="$work/${config}_one_$r"; rm -rf "$out"
    "$surrox" train "${common[@]}" -o "$out" > /dev/null
    one+=("$(epoch2 "$out" "$crops")")
    one_cpu+=("$(json "$out" "['training_cpu_seconds']")")
    for v in "${variants[@]}"; do
      out="$work/${config}_${v}_$r"; rm -rf "$out"
      $mpirun -n 2 "$surrox" train "${common[@]}" -o "$out" \
        --set "training.data_parallel={${options[$v]}}" > /dev/null
      rates[$v]+="$(epoch2 "$out" "$crops") "
      cpu[$v]+="$(json "$out" "['training_cpu_seconds']") "
      sync[$v]+="$(json "$out" "['gradient_sync_seconds']") "
    done
  done
  m1=$(printf "%s\n" "${one[@]}" | median)
  c1=$(printf "%s\n" "${one_cpu[@]}" | median)
  echo "== $config: $(json "$work/${config}_one_1" "['parameters']") parameters, batch $batch," \
    "$points points/crop, $crops crops/epoch; crops/s of epoch 2"
  echo "1 rank: median $m1 (runs ${one[*]}), CPU s of the fit $c1 (runs ${one_cpu[*]})," \
    "optimizer state $(json "$work/${config}_one_1" "['optimizer_state_bytes']") B"
  for v in "${variants[@]}"; do
    m2=$(printf "%s\n" ${rates[$v]} | median)
    c2=$(printf "%s\n" ${cpu[$v]} | median)
    s2=$(printf "%s\n" ${sync[$v]} | median)
    printf "2 ranks %-8s median %8.3f /s  efficiency %5.1f%%  CPU efficiency %5.1f%%  sync %6.2f ms/step  runs %s  CPU s %s  optimizer state (rank 0) %s B\n" \
      "$v" "$m2" "$(awk "BEGIN {print 100 * $m2 / (2 * $m1)}")" "$(awk "BEGIN {print 100 * $c1 / $c2}")" \
      "$(awk "BEGIN {print 1000 * $s2 / $steps}")" "${rates[$v]}" "${cpu[$v]}" \
      "$(json "$work/${config}_${v}_1" "['optimizer_state_bytes']")"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
