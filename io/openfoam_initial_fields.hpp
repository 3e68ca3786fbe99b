#pragma once
// A copy of an OpenFOAM case whose initial fields are given values (`surrox predict --openfoam`):
// the case folder without its time directories other than 0/ and without processor*/, and a
// 0/<field> whose internalField becomes `nonuniform List<scalar|vector>` of one value per cell,
// its boundaryField kept as written. A boundary entry that refers to `$internalField` would
// expand to that list; it gets the former internalField's value (e.g. `uniform (0 0 0)`)
// instead. ASCII field files only; every problem is an InputError naming the file.
#include <filesystem>

#include "io/mesh_data.hpp"

namespace surrox::io {

// Copies `from` (an OpenFOAM case folder with a 0/ directory) to `to`, which must not exist.
void copy_openfoam_case_initial(const std::filesystem::path& from, const std::filesystem::path& to);

// The text of an OpenFOAM field file with its internalField set to `values` (cells × 1: scalar,
// cells × 3: vector), the rest as it was. `source` names the file in errors.
std::string with_internal_field(const std::string& text, const HostArray& values,
                                const std::string& source);

// with_internal_field on the file `field` (e.g. case/0/U), rewritten atomically.
void write_internal_field(const std::filesystem::path& field, const HostArray& values);

}  // namespace surrox::io
