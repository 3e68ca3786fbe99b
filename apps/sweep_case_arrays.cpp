#include "apps/sweep_case_arrays.hpp"

#include "apps/sweep_surface.hpp"

namespace surrox::apps {

const std::map<std::string, SweepCaseArrays>& sweep_case_arrays() {
  static const std::map<std::string, SweepCaseArrays> table = {{"airfoil", add_surface_arrays}};
  return table;
}

}  // namespace surrox::apps
