#pragma once
// The surface distributions of a finished airfoil case (its surface.csv: Cp and Cf per wall
// face) as cell arrays of the sweep dataset, whose arrays are all mesh-sized: "wall_cp" and
// "wall_cf" hold wall face i's value on every cell of grid column i (read them on row j = 0).
// The AirfRANS-style RANS datasets carry the surface Cp and Cf this way.
#include <filesystem>

#include "io/mesh_data.hpp"

namespace surrox::apps {

// Adds wall_cp and wall_cf to `mesh` (a structured grid of ni × nj cells) when `case_dir` has a
// surface.csv with ni rows; leaves the mesh alone otherwise (solvers without a surface). A
// surface.csv that cannot be parsed or has another row count is an Error naming the file.
void add_surface_arrays(const std::filesystem::path& case_dir, io::MeshData& mesh);

}  // namespace surrox::apps
