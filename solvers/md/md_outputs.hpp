#pragma once
// The registry entries of the md outputs (md_output.hpp), one file each.
#include "solvers/md/md_output.hpp"

namespace surrox::solvers::md {

MdOutputRegistry::Entry rdf_output_entry();     // md_output_rdf.cpp
MdOutputRegistry::Entry dump_output_entry();    // md_output_dump.cpp
MdOutputRegistry::Entry deepmd_output_entry();  // md_output_deepmd.cpp

}  // namespace surrox::solvers::md
