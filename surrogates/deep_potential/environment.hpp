#pragma once
// The neighbour slots of the se_e2_a descriptor for one periodic frame (no LibTorch): for each
// atom i, `sel[t]` slots per neighbour type t, filled with the neighbours j of that type within
// rcut, nearest first, as relative vectors r_ij = x_j + image shift − x_i; empty slots hold
// index −1 and r_ij = 0 (DeePMD-kit's nlist padding). Any box (rows are lattice vectors,
// triclinic allowed): images are taken as far as rcut needs, so rcut may exceed half the box.
#include <string>
#include <vector>

namespace surrox::surrogates::deep_potential {

struct FrameEnvironment {
  long atoms = 0, slots = 0;    // slots = Σ sel
  std::vector<long> neighbor;   // atoms × slots: index of j in the frame, or −1
  std::vector<double> rij;      // atoms × slots × 3 (Å)
  std::vector<int> most_found;  // per neighbour type: the largest count any atom had
};

// coord: atoms × 3, box: 9 (rows a, b, c), types: 0-based per atom.
FrameEnvironment build_environment(const double* coord, const double* box,
                                   const std::vector<int>& types, double rcut,
                                   const std::vector<int>& sel);

// Per neighbour type, the most neighbours any atom of `env` has within `radius` in its filled
// slots (laid out by `sel`). Slots hold the nearest first, so this is what a three-body part
// with that cutoff sees (at most sel[t]).
std::vector<int> most_within(const FrameEnvironment& env, const std::vector<int>& sel,
                             double radius);

// Warns once (spdlog) when `most_found` exceeds `sel` for some type: DeePMD-kit drops the
// farthest neighbours silently; we keep the nearest and say how many were seen. Returns whether
// it warned.
bool warn_if_sel_overflows(const std::vector<int>& most_found, const std::vector<int>& sel,
                           const std::vector<std::string>& type_map, const std::string& where);

}  // namespace surrox::surrogates::deep_potential
