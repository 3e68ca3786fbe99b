#!/bin/sh
# Regenerates the committed LAMMPS references of the MD parity tests (lj_n5.*, lj_n5_check.log,
# sw_n3.*) with the installed lmp (Debian 12 package lammps, 29 Sep 2021). Run from tests/md/.
set -e
lmp -screen none -var n 5 -in in.lj_parity -log lj_n5.log
lmp -screen none -var n 5 -var every 1 -var check yes -in in.lj_parity -log lj_n5_check.log
lmp -screen none -var n 3 -in in.sw_parity -log sw_n3.log
lmp -screen none -in in.lj_rdf -log lj_n5_rdf.log
