#pragma once
// DeePMD-kit's npy system format (deepmd-kit docs "System": a folder with type.raw,
// type_map.raw and set.NNN/{coord,box,energy,force,virial}.npy): labelled frames of one
// fixed set of atoms. Units are DeePMD's (Å, eV, eV/Å); box rows are the lattice vectors;
// the virial is Σ r ⊗ f (eV), the sign of LAMMPS's virial. Written as float64, read from
// float32 or float64, every set.* folder in name order.
#include <filesystem>
#include <string>
#include <vector>

namespace surrox::io {

struct DeepmdFrames {
  std::vector<std::string> type_map;  // element names; type k is type_map[k]
  std::vector<int> types;             // per atom, 0-based into type_map
  long frames = 0;
  std::vector<double> coord;   // frames × 3N
  std::vector<double> box;     // frames × 9
  std::vector<double> energy;  // frames (empty: not labelled)
  std::vector<double> force;   // frames × 3N (empty: not labelled)
  std::vector<double> virial;  // frames × 9 (empty: not labelled)
  long atoms() const { return static_cast<long>(types.size()); }
  // Appends the frames of `other` (same atoms and type map; Error otherwise).
  void append(const DeepmdFrames& other);
};

// Writes `frames` into `dir` (type.raw, type_map.raw, set.000, set.001, ... of at most
// `set_size` frames each), every file atomically.
void write_deepmd_system(const std::filesystem::path& dir, const DeepmdFrames& frames,
                         long set_size = 1000);

// Reads one system folder. InputError (naming the file) for a missing or corrupt file, a
// shape that disagrees with the atom count, frame counts that disagree between files, or a
// type beyond type_map.raw.
DeepmdFrames read_deepmd_system(const std::filesystem::path& dir);

// `path` itself when it holds type.raw, else every sub-folder (recursively, in name order)
// that does: a "folder of systems".
std::vector<std::filesystem::path> find_deepmd_systems(const std::filesystem::path& path);

}  // namespace surrox::io
