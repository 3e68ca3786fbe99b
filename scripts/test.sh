#!/usr/bin/env bash
# The whole test suite: installs, builds, runs every CTest test (labels unit, regression,
# mpi, slow), then the io and core tests under the sanitizers (scripts/sanitize.sh subset).
# Extra arguments go to ctest, e.g. -L unit or -R vtk (and skip the sanitizer subset).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/build.sh"
cd "$root"
bash scripts/check_format.sh  # clang-format is installed by the bootstrap that build.sh ran
start=$(date +%s)
ctest --preset "${SURROX_PRESET:-release}" -j "$(nproc)" "$@"
echo "test: suite took $(( $(date +%s) - start )) s"
# The readers of user files and the core again under AddressSanitizer, UndefinedBehaviorSanitizer
# and LeakSanitizer (the whole suite under them: scripts/sanitize.sh all, docs/performance.md).
if [ "${SURROX_PRESET:-release}" = release ] && [ $# -eq 0 ]; then
  bash scripts/sanitize.sh subset
fi
