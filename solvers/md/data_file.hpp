#pragma once
// LAMMPS data files, atom_style atomic: the header (atoms, atom types, xlo xhi ...), Masses,
// Atoms (id type x y z [ix iy iz]) and an optional Velocities section (id vx vy vz). Other
// sections (Pair Coeffs, ...) are skipped. Malformed files and atoms outside the box are
// InputErrors naming the file, the line and the atom.
#include <filesystem>

#include "solvers/md/md_system.hpp"

namespace surrox::solvers::md {

AtomData read_data_file(const std::filesystem::path& path);

// Writes the format read_data_file reads (full double precision, as LAMMPS write_data).
void write_data_file(const std::filesystem::path& path, const AtomData& data,
                     const std::string& units, long step);

}  // namespace surrox::solvers::md
