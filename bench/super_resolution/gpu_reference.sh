#!/bin/bash
# The public MeshfreeFlowNet code's training and inference rates on a GPU (pytorch_reference.py
# --device cuda), for the 128-GPU projection and the coupler's inference cost in
# docs/validation/super_resolution.md ("On a GPU"). Needs python3 with torch (CUDA) and sympy.
# Prints one JSON line per configuration and appends them to OUT/gpu_reference.jsonl.
#
# Usage: bench/super_resolution/gpu_reference.sh STPDE_DIR [OUT]
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
stpde=${1:?usage: gpu_reference.sh STPDE_DIR [OUT]}
out=${2:-.}
mkdir -p "$out"
export PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
nvidia-smi -L
run() {
  echo "== $1"
  shift
  timeout 120 python3 "$root/bench/super_resolution/pytorch_reference.py" --src "$stpde" \
    --device cuda --threads 8 "$@" 2>&1 | grep -v Warning | tee -a "$out/gpu_reference.jsonl"
}
default="--crop 4 8 8 --latent 16 --unet-filters 8 --imnet-filters 8 --activation softplus"
paper="--crop 4 16 16 --latent 32 --unet-filters 16 --imnet-filters 32 --activation softplus"
# shellcheck disable=SC2086  # the configurations are word lists
{
  run default_train $default --no-batchnorm --points 128 --batch 8 --crops 512 --epochs 3
  run default_train_b64 $default --no-batchnorm --points 128 --batch 64 --crops 2048 --epochs 3
  run paper_train $paper --no-batchnorm --points 1024 --batch 10 --crops 300 --epochs 3
  run paper_train_batchnorm $paper --points 1024 --batch 10 --crops 300 --epochs 3
  run paper_train_b40 $paper --no-batchnorm --points 1024 --batch 40 --crops 800 --epochs 2
  run default_infer --mode infer $default --no-batchnorm --batch 64 --points 51456 --repeats 5
  run paper_infer --mode infer $paper --no-batchnorm --batch 8 --points 51456 --repeats 5
}
