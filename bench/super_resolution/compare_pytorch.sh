#!/bin/bash
# MeshfreeFlowNet side by side: surrox against the public PyTorch code (maxjiang93/space_time_pde,
# a checkout OUTSIDE this repository, run with Debian's python3-torch through
# pytorch_reference.py) on the same network, crop, batch, query points and loss terms, one
# thread each (OMP_NUM_THREADS=1, torch threads 1), runs alternated, medians of N.
#
#   training:  crops per second of `surrox train` (family super_resolution; epoch 2 of
#              metrics.csv, epoch 1 is warm-up) and of the reference's train() loop on random
#              crops (its epoch 2); L1 prediction + gamma · L1 Boussinesq residual by autograd at
#              every query point (physics.residual_points = points_per_crop), Adam.
#   inference: query points per second of both decoders (local implicit grid + ImNet, no
#              gradients) on a random latent grid of the same shape (bench_sr_decode here).
#
# Both networks are checked to have the same parameter count first (the reference's U-Net with
# its BatchNorm3d replaced by the identity, as surrox's U-Net has none; its count with BatchNorm
# is printed too). The crops surrox trains on come from a tiny Rayleigh–Bénard run made here
# (only their shape matters for the timing).
#
# Usage: bench/super_resolution/compare_pytorch.sh STPDE_DIR [build dir] [repeats] [configs]
#   STPDE_DIR: e.g. mkdir -p /tmp/stpde && git -C <clone> archive 5e355b0 | tar -x -C /tmp/stpde
#   configs: "default" (cases/super_resolution/train.yml's widths, crop 4×8×8, 128 points,
#            batch 8) and/or "paper" (latent 32, U-Net 16, ImNet 32, crop 4×16×16; 64 points and
#            batch 4 to fit a short run; PAPER_POINTS, PAPER_BATCH override them).
#            Default: "default paper".
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
stpde=${1:?usage: compare_pytorch.sh STPDE_DIR [build dir] [repeats] [configs]}
build=${2:-$root/build/release}
repeats=${3:-3}
configs=${4:-default paper}
surrox=${SURROX:-$build/apps/surrox}
decode=$build/bench/super_resolution/bench_sr_decode
python=/usr/bin/python3
reference=$root/bench/super_resolution/pytorch_reference.py
work=${WORK:-$(mktemp -d /tmp/sr_bench.XXXXXX)}
mkdir -p "$work"
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONWARNINGS=ignore
$python -c "import torch, sympy" 2> /dev/null || { echo "needs python3-torch and python3-sympy"; exit 1; }
[ -d "$stpde/src" ] || { echo "$stpde is not a space_time_pde checkout"; exit 1; }
for exe in "$surrox" "$decode"; do [ -x "$exe" ] || { echo "no $exe: build surrox and bench_sr_decode"; exit 1; }; done

source "$root/bench/super_resolution/common.sh"  # median, tiny_rb_run
field() { $python -c "import json,sys; print(json.loads(sys.stdin.readlines()[-1])['$1'])"; }

tiny_rb_run "$work" "$surrox"

for config in $configs; do
  case $config in
    default) crop=(4 8 8); latent=16; unet=8; imnet=8; points=128; batch=8; crops=24 ;;
    paper) crop=(4 16 16); latent=32; unet=16; imnet=32; points=${PAPER_POINTS:-64}
      batch=${PAPER_BATCH:-4}; crops=$((2 * batch)) ;;
    *) echo "unknown config $config (default, paper)"; exit 2 ;;
  esac
  widths=(--crop "${crop[@]}" --latent "$latent" --unet-filters "$unet" --unet-max-filters 256
    --imnet-filters "$imnet" --activation softplus)
  ref=("$python" "$reference" --src "$stpde" "${widths[@]}" --no-batchnorm --threads 1)
  dec=("$decode" "${crop[@]}" "$latent" "$unet" 256 "$imnet" softplus "$batch" "$points" 20 1)
  echo "== $config: crop ${crop[*]}, latent $latent, U-Net $unet, ImNet $imnet, $points points, batch $batch"
  ps=$("${dec[@]}" | field parameters)
  pp=$("${ref[@]}" --mode infer --repeats 1 | field parameters)
  pb=$("$python" "$reference" --src "$stpde" "${widths[@]}" --mode infer --repeats 1 | field parameters)
  echo "parameters: surrox $ps, reference $pp (with its BatchNorm3d: $pb)"
  [ "$ps" = "$pp" ] || { echo "not the same network"; exit 1; }

  train_s=() train_p=() infer_s=() infer_p=()
  for r in $(seq "$repeats"); do
    out="$work/train_${config}_$r"
    rm -rf "$out"
    "$surrox" train "$root/cases/super_resolution/train.yml" -o "$out" --threads 1 --log-level warn \
      --set "data.train=[$work/rb/fields.h5]" --set "data.validation=[]" \
      --set data.downsampling.t=1 --set data.downsampling.z=2 --set data.downsampling.x=2 \
      --set "data.crop=[${crop[0]},${crop[1]},${crop[2]}]" --set data.crops_per_run=$crops \
      --set data.points_per_crop=$points --set physics.residual_points=$points \
      --set network.latent=$latent --set network.unet_filters=$unet --set network.imnet_filters=$imnet \
      --set training.epochs=2 --set training.batch_size=$batch --set training.checkpoint_interval=100 > /dev/null
    train_s+=("$(awk -F, -v n=$crops 'NR == 3 {print n / $5}' "$out/metrics.csv")")
    train_p+=("$("${ref[@]}" --points $points --batch $batch --crops $crops --epochs 2 | field samples_per_second)")
    infer_s+=("$("${dec[@]}" | field query_points_per_second)")
    infer_p+=("$("${ref[@]}" --mode infer --points $points --batch $batch --repeats 20 | field query_points_per_second)")
    echo "run $r: training surrox ${train_s[-1]} /s, reference ${train_p[-1]} /s; inference surrox ${infer_s[-1]} /s, reference ${infer_p[-1]} /s"
  done
  ts=$(printf "%s\n" "${train_s[@]}" | median) tp=$(printf "%s\n" "${train_p[@]}" | median)
  is=$(printf "%s\n" "${infer_s[@]}" | median) ip=$(printf "%s\n" "${infer_p[@]}" | median)
  printf "%-10s %-34s %14s %14s %8s\n" "" "median of $repeats" "surrox" "pytorch" "ratio"
  printf "%-10s %-34s %14.3f %14.3f %8.2f\n" "$config" "training crops/s" "$ts" "$tp" "$($python -c "print($ts / $tp)")"
  printf "%-10s %-34s %14.0f %14.0f %8.2f\n" "$config" "training query points/s" \
    "$($python -c "print($ts * $points)")" "$($python -c "print($tp * $points)")" "$($python -c "print($ts / $tp)")"
  printf "%-10s %-34s %14.0f %14.0f %8.2f\n" "$config" "inference query points/s" "$is" "$ip" "$($python -c "print($is / $ip)")"
done
