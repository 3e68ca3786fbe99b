#pragma once
// What a solver adds to each of its cases in a sweep dataset from the case's folder, beyond the
// fields of its last output, keyed by the solver's type: the airfoil solver's surface Cp and Cf
// (sweep_surface.hpp). The generic sweep asks this table instead of calling any solver's hook
// for every solver; a solver without an entry adds nothing.
#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "io/mesh_data.hpp"

namespace surrox::apps {

using SweepCaseArrays =
    std::function<void(const std::filesystem::path& case_dir, io::MeshData& mesh)>;

const std::map<std::string, SweepCaseArrays>& sweep_case_arrays();

}  // namespace surrox::apps
