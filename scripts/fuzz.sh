#!/usr/bin/env bash
# Fuzzes the file readers surrox exposes to users with clang's libFuzzer + AddressSanitizer
# (Debian: clang-14, libclang-rt-14-dev). surrox's own io sources are compiled instrumented;
# VTK and HDF5 are the system libraries (not instrumented: their crashes and ASan reports in
# surrox's calls still show, but coverage guidance comes from surrox's code and the target).
#   scripts/fuzz.sh build                       build build/fuzz/<ext>_fuzz (needs build/release)
#   scripts/fuzz.sh run SECONDS [EXT...]        fuzz each target for SECONDS from
#                                               fuzz/corpus/<ext> (+ new finds), crashes → build/fuzz/;
#                                               SURROX_FUZZ_KEEP_GOING=1: go on past crashes (libFuzzer
#                                               -fork=1 -ignore_crashes=1), e.g. ones inside HDF5
#   scripts/fuzz.sh merge [EXT...]              add to fuzz/corpus/<ext> the finds that add coverage
# Every crash found becomes a regression test (tests/io/fuzz_regression_test.cpp) and a fix.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
release="$root/build/release"
out="$root/build/fuzz"
extensions_all=(vtu vti vtp vts vtk vtm pvd h5)
mkdir -p "$out"

compile_flags() {  # the release build's include paths and definitions for a target's sources
  python3 - "$release/compile_commands.json" "$1" <<'PY'
import json, shlex, sys
for e in json.load(open(sys.argv[1])):
    if sys.argv[2] in e["file"]:  # a unity batch of the target
        args = shlex.split(e["command"])
        print(" ".join(a for a in args if a.startswith(("-I", "-D", "-isystem")) or
                       args[args.index(a) - 1] == "-isystem"))
        break
PY
}

link_libraries() {  # what the io tests link, without the gtest main and the io archives
  python3 - "$release/build.ninja" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
for i, line in enumerate(lines):
    if line.startswith("build tests/surrox_tests_io:"):
        for l in lines[i:i + 12]:
            if l.strip().startswith("LINK_LIBRARIES ="):
                parts = l.split("=", 1)[1].split()
                skip = ("libsurrox_test_main", "libgtest", "libsurrox_io_vtk.a", "libsurrox_io_hdf5.a")
                print(" ".join(p.replace('"', "") for p in parts if not any(k in p for k in skip)))
                sys.exit()
PY
}

build() {
  [ -f "$release/compile_commands.json" ] || { echo "configure and build build/release first" >&2; exit 2; }
  (cd "$release" && nice cmake --build . --target surrox_io surrox_core surrox_tests_io >/dev/null)
  local flags="$(compile_flags surrox_io_vtk.dir/) $(compile_flags surrox_io_hdf5.dir/)"
  local objects=()
  for source in "$root"/io/vtk_*.cpp "$root"/io/hdf5_*.cpp "$root"/io/xdmf_*.cpp; do
    local object="$out/$(basename "${source%.cpp}").o"
    if [ ! -f "$object" ] || [ "$source" -nt "$object" ]; then
      nice clang++-14 -std=c++17 -g -O1 -fsanitize=fuzzer-no-link,address $flags -c "$source" -o "$object"
    fi
    objects+=("$object")
  done
  local libs="$(cd "$release" && link_libraries)"
  for ext in "${extensions_all[@]}"; do
    nice clang++-14 -std=c++17 -g -O1 -fsanitize=fuzzer,address $flags \
      -DSURROX_FUZZ_EXTENSION="\".$ext\"" "$root/fuzz/reader_fuzz.cpp" "${objects[@]}" \
      -o "$out/${ext}_fuzz" $(cd "$release" && for l in $libs; do
        case "$l" in /*|-*) echo "$l" ;; *) echo "$release/$l" ;; esac; done)
  done
  echo "built: $(ls "$out"/*_fuzz | xargs -n1 basename | tr '\n' ' ')"
}

run() {
  local seconds="$1"; shift
  local keep_going=()
  [ "${SURROX_FUZZ_KEEP_GOING:-0}" = 1 ] && keep_going=(-fork=1 -ignore_crashes=1)
  local extensions=("$@")
  [ ${#extensions[@]} -gt 0 ] || extensions=("${extensions_all[@]}")
  for ext in "${extensions[@]}"; do
    local work="$out/work-$ext" corpus="$root/fuzz/corpus/$ext"
    mkdir -p "$work" "$out/new-$ext" "$out/crashes-$ext"
    # A .vtm or .pvd fuzz input lies beside the files its seeds name.
    [ -d "$root/fuzz/corpus/$ext-files" ] && cp -r "$root/fuzz/corpus/$ext-files/." "$work/"
    echo "== $ext: $seconds s"
    # allocator_may_return_null: a corrupt size field asking for 2^60 bytes must meet what the
    # release build meets (malloc returns NULL, new throws bad_alloc), not ASan's abort; the
    # code's handling of that is then what is tested. Leaks: VTK's readers keep singletons.
    SURROX_FUZZ_DIR="$work" ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 \
      "$out/${ext}_fuzz" \
      -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=65536 ${keep_going[@]+"${keep_going[@]}"} \
      -artifact_prefix="$out/crashes-$ext/" -print_final_stats=1 \
      "$out/new-$ext" "$corpus" 2>&1 | grep -E "^(stat::|#[0-9]+ +DONE|==[0-9]+==ERROR|SUMMARY|artifact|INFO: fuzzed for|INFO: exiting)" || true
  done
}

merge() {  # keep in fuzz/corpus only the finds that add coverage (libFuzzer's -merge)
  local extensions=("$@")
  [ ${#extensions[@]} -gt 0 ] || extensions=("${extensions_all[@]}")
  for ext in "${extensions[@]}"; do
    local work="$out/work-$ext"
    mkdir -p "$work" "$out/new-$ext"
    [ -d "$root/fuzz/corpus/$ext-files" ] && cp -r "$root/fuzz/corpus/$ext-files/." "$work/"
    SURROX_FUZZ_DIR="$work" ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 \
      "$out/${ext}_fuzz" -merge=1 -timeout=20 -max_len=65536 "$root/fuzz/corpus/$ext" \
      "$out/new-$ext" 2>&1 | grep -E "MERGE-OUTER: [0-9]+ new files" || true
  done
}

case "${1:-}" in
  build) build ;;
  merge) shift; merge "$@" ;;
  run) shift; run "$@" ;;
  *) sed -n 2,12p "$0"; exit 2 ;;
esac
