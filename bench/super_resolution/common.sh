# Shared by the super-resolution bench scripts (sourced, not run).
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"

# A 128 × 32 uniform Rayleigh–Bénard run with 11 frames in WORK/rb (made once): downsampling 1
# in t, 2 in z and x gives 11 × 16 × 64 low-res nodes, room for crops of 4 × 16 × 16; only the
# crops' shape matters for the timings. Usage: tiny_rb_run WORK SURROX
tiny_rb_run() {
  local work=$1 surrox=$2
  [ -f "$work/rb/fields.h5" ] && return
  cat > "$work/rb.yaml" << 'YAML'
solver: {type: rayleigh_benard, rayleigh: 1.0e6, prandtl: 1.0, length: [4.0, 1.0],
         cells: [128, 32], stretching: 0, end_time: 1.0, cfl: 0.8, initial: random,
         amplitude: 1.0e-3, seed: 42}
output: {interval: 0.1, vtk: false, hdf5: true}
YAML
  "$surrox" run "$work/rb.yaml" -o "$work/rb" --threads 1 --log-level warn
}
