#pragma once
// One atom of an AtomData as the flat doubles that ranks exchange (migration, gathering on
// rank 0): id, type, x[3], v[3], image[3]. Ids and image flags are exact in a double.
#include <vector>

#include "solvers/md/md_system.hpp"

namespace surrox::solvers::md {

inline constexpr int kPackedAtom = 11;  // doubles per packed atom

void pack_atom(const AtomData& from, long i, std::vector<double>& out);
// Appends the atom packed at `in` (kPackedAtom values) to `to`.
void unpack_atom(const double* in, AtomData& to);
// Appends atom i of `from` to `to` (zero velocity or image flags where `from` has none).
void append_atom(const AtomData& from, long i, AtomData& to);
// The box, types and masses of `data` with no atoms.
AtomData without_atoms(const AtomData& data);

}  // namespace surrox::solvers::md
