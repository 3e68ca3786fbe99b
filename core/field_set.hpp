#pragma once
// Named fields of a solver's state, in the default execution space's memory. Grid fields are
// rank-3 LayoutRight Views indexed (k, j, i) — z slowest, x fastest, the same order as VTK
// points — with nk = 1 in 2D. The FieldSet shares the Views; it does not copy them.
#include <Kokkos_Core.hpp>
#include <map>
#include <string>

namespace surrox {

using Field3 = Kokkos::View<double***, Kokkos::LayoutRight>;

struct FieldSet {
  std::map<std::string, Field3> fields;
  std::map<std::string, std::string> units;  // field name → unit ("1" for dimensionless)

  void add(const std::string& name, Field3 view, const std::string& unit = "1") {
    fields[name] = view;
    units[name] = unit;
  }
};

}  // namespace surrox
