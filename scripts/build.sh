#!/usr/bin/env bash
# Installs what is missing (scripts/bootstrap.sh), configures with the `release` preset and
# builds. Shared by scripts/demo.sh and scripts/test.sh. Set SURROX_PRESET=debug for the
# AddressSanitizer + UndefinedBehaviorSanitizer build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
preset="${SURROX_PRESET:-release}"
bash "$root/scripts/bootstrap.sh"
cd "$root"
start=$(date +%s)
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
echo "build: $preset build took $(( $(date +%s) - start )) s"
