#include "solvers/md/md_output.hpp"
#include "solvers/md/md_outputs.hpp"

namespace surrox::solvers::md {

const MdOutputRegistry& md_outputs() {
  static const MdOutputRegistry registry = [] {
    MdOutputRegistry r("md output");
    r.add("deepmd", deepmd_output_entry());
    r.add("dump", dump_output_entry());
    r.add("rdf", rdf_output_entry());
    return r;
  }();
  return registry;
}

}  // namespace surrox::solvers::md
