#!/usr/bin/env bash
# The whole test suite: installs, builds, runs every CTest test (labels unit, regression,
# mpi, slow). Extra arguments go to ctest, e.g. -L unit or -R vtk.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/build.sh"
cd "$root"
bash scripts/check_format.sh  # clang-format is installed by the bootstrap that build.sh ran
start=$(date +%s)
ctest --preset "${SURROX_PRESET:-release}" -j "$(nproc)" "$@"
echo "test: suite took $(( $(date +%s) - start )) s"
