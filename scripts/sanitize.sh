#!/usr/bin/env bash
# Tests under AddressSanitizer + UndefinedBehaviorSanitizer with leak detection (the `debug`
# CMake preset, build/debug): any sanitizer report fails its test (UBSan does not recover,
# ASan/UBSan halt on the first report, LeakSanitizer's exit code fails the process); leaks are
# suppressed only inside third-party libraries (tests/sanitizers/lsan.supp, a reason per entry).
#   scripts/sanitize.sh subset   the io and core tests (the hostile-file readers, fuzz corpus
#                                replay, case files, atomic writes): what .ci/run runs, ~5 min
#   scripts/sanitize.sh all      every test (build ~30 min and suite ~40 min on 2 cores)
# Extra arguments go to ctest. Expects the bootstrap to have run (scripts/build.sh does it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mode="${1:-}"
shift || true
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_DEPEND=true CCACHE_BASEDIR="$root" CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
fi
start=$(date +%s)
cmake --preset debug "${launcher[@]}" >/dev/null
case "$mode" in
  subset)
    cmake --build --preset debug --target surrox_tests_io surrox_tests_core
    # multiblock_paraview_test runs the surrox CLI, which the subset does not build.
    labels=(-L '^(io|core)$' -E '^multiblock_paraview_test$')
    ;;
  all)
    cmake --build --preset debug
    labels=()
    ;;
  *) sed -n 2,10p "$0"; exit 2 ;;
esac
echo "sanitize: debug build took $(( $(date +%s) - start )) s"
start=$(date +%s)
ctest --preset debug -j "$(nproc)" "${labels[@]}" "$@"
echo "sanitize: $mode suite took $(( $(date +%s) - start )) s"
