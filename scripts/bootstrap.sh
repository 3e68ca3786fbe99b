#!/usr/bin/env bash
# Installs every Debian 12 package surrox needs to build, test and run, plus the peers the
# tests compare against. Idempotent and non-interactive; run as root (or with sudo) on a
# fresh machine. Prints what it installs; does nothing when everything is present.
set -euo pipefail

packages=(
  # Toolchain
  build-essential g++ cmake ninja-build pkg-config git ca-certificates ccache clang-format
  # Fuzzing the readers (scripts/fuzz.sh): clang's libFuzzer and sanitizer runtimes
  clang-14 libclang-rt-14-dev
  # Numerics and ML
  libtorch-dev libgloo-dev libtrilinos-kokkos-dev libopenblas0-openmp liblapack-dev libfftw3-dev libfftw3-mpi-dev
  # I/O
  libvtk9-dev libhdf5-openmpi-dev hdf5-tools libyaml-cpp-dev nlohmann-json3-dev
  # Parallel
  libopenmpi-dev openmpi-bin petsc-dev
  # CLI, logging, tests, benchmarks
  libcli11-dev libspdlog-dev libfmt-dev libgtest-dev libgmock-dev libbenchmark-dev
  # Peers the tests check surrox against: ParaView opens every file surrox writes; LAMMPS (lmp)
  # is the reference for molecular dynamics; liblammps-dev builds pair_style surrox/deep (lammps/).
  paraview lammps liblammps-dev
  # OpenFOAM v1912 (blockMesh, icoFoam, foamToVTK): tests/field/openfoam_foamtovtk_parity_test.cpp
  # makes a small case at test time and checks the case-folder reader against foamToVTK's export;
  # openfoam-examples holds the simpleFoam airFoil2D tutorial of scripts/openfoam_airfoil.sh.
  openfoam openfoam-examples
  # Figures in docs/ (scripts/figures/*.py) and the Python PyTorch peer of the training
  # benchmark and the TorchScript interoperability test (same LibTorch 1.13 as libtorch-dev).
  python3-matplotlib python3-numpy python3-h5py python3-torch
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
apt_updated=0
apt_update() {
  if [ "$apt_updated" -eq 0 ]; then
    $SUDO apt-get update -q
    apt_updated=1
  fi
}

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  apt_update
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# ParaView's Python modules (python3-paraview) conflict with libvtk9-dev through python3-vtk9,
# so they are unpacked into a private prefix that scripts/pvpython puts on PYTHONPATH.
peers="${SURROX_PEERS:-/opt/surrox-peers}"
if [ ! -d "$peers/python3-paraview/usr/lib/python3/dist-packages/paraview" ]; then
  echo "bootstrap: unpacking python3-paraview into $peers"
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  (cd "$scratch" && { apt-get download -q python3-paraview 2>/dev/null || { apt_update; apt-get download -q python3-paraview; }; })
  $SUDO mkdir -p "$peers/python3-paraview.tmp"
  $SUDO dpkg-deb -x "$scratch"/python3-paraview_*.deb "$peers/python3-paraview.tmp"
  $SUDO rm -rf "$peers/python3-paraview"
  $SUDO mv "$peers/python3-paraview.tmp" "$peers/python3-paraview"
fi
echo "bootstrap: ${#packages[@]} packages and the ParaView Python peer are present"
