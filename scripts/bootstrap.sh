#!/usr/bin/env bash
# Installs every Debian 12 package surrox needs to build, test and run.
# Idempotent and non-interactive; run as root (or through sudo) on a fresh machine.
set -euo pipefail

packages=(
  build-essential g++ cmake ninja-build pkg-config git ca-certificates
  libtorch-dev libgloo-dev libtrilinos-kokkos-dev
  libvtk9-dev libhdf5-openmpi-dev hdf5-tools
  libopenmpi-dev openmpi-bin petsc-dev
  libyaml-cpp-dev libcli11-dev libspdlog-dev libfmt-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libopenblas0-openmp
  # Peers the tests check surrox against: ParaView's pvpython opens every file surrox writes.
  paraview
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "bootstrap: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "bootstrap: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
