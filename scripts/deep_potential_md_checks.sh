#!/usr/bin/env bash
# MD on a trained deep potential against Stillinger–Weber (issue 12, acceptance 3), 64 Si atoms:
#   1. SW at the reference liquid's density (a = 5.24 Å), from 6000 K velocities, Langevin
#      2100 K, 8000 steps of 1 fs, a dump frame every 20 steps (cases/deep_potential/si_reference.yaml);
#   2. its state at step 2000 as a LAMMPS data file with velocities;
#   3. the model from that state (OUT/dp_md.yaml, written below: pair deep, Δt 1 fs): NVE,
#      10,000 steps: energy drift; and Langevin 2100 K, 8000 steps with dumps: the RDF against SW's over
#      steps 2000–8000 (block standard errors);
#   4. the model from the diamond lattice (a = 5.431 Å, at rest) under Langevin 1000 K, 6000
#      steps: RMS displacement from the lattice sites and the RDF (crystalline or not);
#   5. OUT/md_checks.json and OUT/md_checks.png (scripts/figures/deep_potential_md.py).
# Needs a built surrox and Debian's python3-numpy/matplotlib.
#
# Usage: scripts/deep_potential_md_checks.sh MODEL OUT
set -euo pipefail
model=$(realpath "${1:?usage: scripts/deep_potential_md_checks.sh MODEL OUT}")
out=$(mkdir -p "${2:?usage: scripts/deep_potential_md_checks.sh MODEL OUT}" && cd "$2" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
surrox=${SURROX:-$root/build/release/apps/surrox}
figures=$root/scripts/figures/deep_potential_md.py
common=(--log-level warn --set solver.integrator.seed=77)
"$surrox" run "$root/cases/deep_potential/si_reference.yaml" -o "$out/sw_liquid" "${common[@]}" \
  --set solver.lattice.constant=5.24 --set solver.velocity.temperature=6000 \
  --set solver.integrator.temperature=2100 --set solver.steps=8000 --set solver.dump=20 \
  --set solver.thermo=100
/usr/bin/python3 "$figures" data "$out/sw_liquid/dump.lammpstrj" 2000 "$out/liquid.data"
/usr/bin/python3 "$figures" crystal 5.431 2 "$out/crystal.data"
cat > "$out/dp_md.yaml" <<YAML
# MD on the deep potential $model from a LAMMPS data file (written by $0).
runtime:
  threads: 1
solver:
  type: md
  units: metal
  data_file: liquid.data
  pair:
    type: deep
    model: $model
  neighbor:
    skin: 1.0
  dt: 0.001
  steps: 10000
  thermo: 10
output:
  interval: 0
  vtk: false
  hdf5: false
YAML
"$surrox" run "$out/dp_md.yaml" -o "$out/dp_nve" --log-level warn
"$surrox" run "$out/dp_md.yaml" -o "$out/dp_nvt" "${common[@]}" \
  --set solver.steps=8000 --set solver.dump=20 --set solver.thermo=100 \
  --set solver.integrator.style=langevin --set solver.integrator.temperature=2100 \
  --set solver.integrator.damping=0.1
"$surrox" run "$out/dp_md.yaml" -o "$out/dp_crystal" --log-level warn \
  --set "solver.data_file=$out/crystal.data" \
  --set solver.steps=6000 --set solver.dump=100 --set solver.thermo=100 \
  --set solver.integrator.style=langevin --set solver.integrator.temperature=1000 \
  --set solver.integrator.damping=0.1 --set solver.integrator.seed=99
/usr/bin/python3 "$figures" report "$out"
