#!/usr/bin/env bash
# The main job on its embedded default: installs, builds, then runs the demo case
# (cases/demo/heat.yaml) into out/demo: VTK series + HDF5 dataset + summary.json.
# Extra arguments go to `surrox run`, e.g. --set solver.grid.points=[257,257].
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/build.sh"
cd "$root"
build/"${SURROX_PRESET:-release}"/apps/surrox run cases/demo/heat.yaml -o out/demo "$@"
echo "demo: open out/demo/fields.pvd or out/demo/fields.xdmf in ParaView; figures in out/demo/summary.json"
