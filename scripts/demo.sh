#!/usr/bin/env bash
# The main job on its embedded small default: installs what is missing, builds, then runs the
# airfoil-surrogate pipeline (scripts/pipeline.sh): a 36-case NACA sweep on 2 MPI ranks, two
# trainings of the flow-field surrogate (plain and area-weighted MSE), the cold-vs-warm-start
# comparison on 8 held-out cases, a summary table and PNG plots (loss curves, predicted vs CFD
# surface Cp). Writes into OUT (default out/demo); a rerun skips the finished sweep cases.
#
# Usage: bash scripts/demo.sh [OUT]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/build.sh"
cd "$root"
bash scripts/pipeline.sh "${1:-out/demo}"
echo "demo: summary in ${1:-out/demo}/summary.md, plots ${1:-out/demo}/loss.png and cp.png"
