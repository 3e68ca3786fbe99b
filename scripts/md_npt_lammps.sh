#!/bin/bash
# Constant pressure side by side with LAMMPS: surrox's stochastic cell rescaling
# (barostat.style c_rescale) against LAMMPS's fix npt (Nosé–Hoover/MTK) at the same states,
#   - the LJ liquid of cases/md/lj_liquid_npt.yaml (500 atoms, T 1.5, P 2), isotropic, on 1 and
#     2 ranks (scripts/lammps/in.lj_npt);
#   - the SW silicon crystal of cases/md/si_sw_npt.yaml (512 atoms, 1000 K, 1 bar), isotropic
#     and per axis (LAMMPS aniso; scripts/lammps/in.sw_npt).
# Two different barostats sample the same ensemble, so what must agree is the statistics: the
# mean density and its fluctuation (which NPT fixes through the compressibility), each with its
# block-averaged standard error, and the mean pressure. Prints the table, writes npt.json, a
# Markdown table and the figure docs/validation/figures/md_npt_lammps.png.
#
# Usage: scripts/md_npt_lammps.sh [path/to/surrox] [output folder]
#   LJ_STEPS (200000) and SW_STEPS (100000) set the run lengths; the first 10 % is discarded.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
surrox=$(realpath "${1:-$root/build/release/apps/surrox}")
out=$(mkdir -p "${2:-$root/out/md_npt_lammps}" && cd "${2:-$root/out/md_npt_lammps}" && pwd)
lj_steps=${LJ_STEPS:-200000}
sw_steps=${SW_STEPS:-100000}
command -v lmp > /dev/null || { echo "lmp (LAMMPS) is not installed: apt-get install lammps"; exit 1; }
cp "$root/scripts/lammps/in.lj_npt" "$root/scripts/lammps/in.sw_npt" "$root/tests/md/Si.sw" "$out/"
mpirun_np() { mpirun --allow-run-as-root --oversubscribe -np "$@"; }

lammps() {  # name input couple steps
  [ -s "$out/$1.log" ] && grep -q "Loop time" "$out/$1.log" && return
  (cd "$out" && lmp -screen none -log "$1.log" -in "$2" -var couple "$3" -var steps "$4")
}
ours() {  # name case couple steps ranks
  [ -s "$out/$1/thermo.csv" ] && return
  local launch=()
  [ "$5" -gt 1 ] && launch=(mpirun --allow-run-as-root --oversubscribe -np "$5")
  "${launch[@]}" "$surrox" run "$root/cases/md/$2" -o "$out/$1" --log-level warn \
    --set solver.barostat.couple="$3" --set solver.steps="$4" > "$out/$1.out" 2>&1 ||
    { cat "$out/$1.out"; exit 1; }
}

start=$(date +%s)
lammps lammps_lj_iso in.lj_npt iso "$lj_steps"
ours surrox_lj_iso lj_liquid_npt.yaml isotropic "$lj_steps" 1
ours surrox_lj_iso_np2 lj_liquid_npt.yaml isotropic "$lj_steps" 2
lammps lammps_sw_iso in.sw_npt iso "$sw_steps"
ours surrox_sw_iso si_sw_npt.yaml isotropic "$sw_steps" 1
lammps lammps_sw_aniso in.sw_npt aniso "$sw_steps"
ours surrox_sw_axes si_sw_npt.yaml axes "$sw_steps" 1
echo "runs took $(( $(date +%s) - start )) s"

/usr/bin/python3 "$root/scripts/figures/md_npt_lammps.py" "$out" \
  "$root/docs/validation/figures/md_npt_lammps.png"
