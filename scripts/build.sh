#!/usr/bin/env bash
# Installs what is missing (scripts/bootstrap.sh), configures with the `release` preset and
# builds. Shared by scripts/demo.sh and scripts/test.sh. Set SURROX_PRESET=debug for the
# AddressSanitizer + UndefinedBehaviorSanitizer build; SURROX_CMAKE_ARGS passes more CMake
# options, e.g. SURROX_CMAKE_ARGS=-DSURROX_BUILD_BENCH=ON to build the benchmarks too.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
preset="${SURROX_PRESET:-release}"
bash "$root/scripts/bootstrap.sh"
cd "$root"
start=$(date +%s)
# ccache makes a rebuild of unchanged units (another clone, a switched branch, CI) a cache hit;
# depend mode skips its preprocessor pass, which on a miss cost as much as a torch unit's parse.
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_DEPEND=true CCACHE_BASEDIR="$root" CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
fi
cmake --preset "$preset" "${launcher[@]}" ${SURROX_CMAKE_ARGS:-} >/dev/null
cmake --build --preset "$preset"
echo "build: $preset build took $(( $(date +%s) - start )) s"
