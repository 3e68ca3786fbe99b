#include "mesh/flat_plate_grid.hpp"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "core/error.hpp"

namespace surrox::mesh {

std::vector<double> geometric_nodes(double length, long n, double first) {
  if (!(n >= 1 && length > 0 && first > 0 && first * static_cast<double>(n) <= length))
    throw InputError(
        fmt::format("flat plate grid: {} cells with a first spacing of {} cannot grow to fill {}",
                    n, first, length));
  // Σ_{k<n} first·r^k = length; the sum grows with r, so bisect on r in [1, 2^(60/n)+1].
  const auto total = [&](double r) {
    double s = 0, h = first;
    for (long k = 0; k < n; ++k) s += h, h *= r;
    return s;
  };
  double lo = 1, hi = 2;
  while (total(hi) < length) hi *= 2;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    (total(mid) < length ? lo : hi) = mid;
  }
  const double r = 0.5 * (lo + hi);
  std::vector<double> s(static_cast<std::size_t>(n + 1), 0.0);
  double h = first;
  for (long k = 1; k <= n; ++k) s[static_cast<std::size_t>(k)] = s[k - 1] + h, h *= r;
  s.back() = length;  // exactly, whatever the bisection's last bit
  return s;
}

CurvilinearGrid build_flat_plate_grid(const FlatPlateGridSpec& spec) {
  if (spec.cells_upstream < 1 || spec.cells_plate < 1 || spec.cells_normal < 1 ||
      !(spec.x_inflow < 0 && spec.x_outflow > 0 && spec.height > 0))
    throw InputError(
        "flat plate grid: cell counts must be ≥ 1, x_inflow < 0 < x_outflow, height > 0");
  const std::vector<double> up =
      geometric_nodes(-spec.x_inflow, spec.cells_upstream, spec.leading_edge_spacing);
  const std::vector<double> plate =
      geometric_nodes(spec.x_outflow, spec.cells_plate, spec.leading_edge_spacing);
  const std::vector<double> ys = geometric_nodes(spec.height, spec.cells_normal, spec.wall_spacing);
  const long ni = spec.cells_upstream + spec.cells_plate, nj = spec.cells_normal;
  CurvilinearGrid g;
  g.topology = GridTopology::kRectangle;
  g.wall_begin = spec.cells_upstream;
  g.x = HostMatrix("flat_plate_x", ni + 1, nj + 1);
  g.y = HostMatrix("flat_plate_y", ni + 1, nj + 1);
  for (long i = 0; i <= ni; ++i) {
    const double x = i <= spec.cells_upstream
                         ? -up[static_cast<std::size_t>(spec.cells_upstream - i)]
                         : plate[static_cast<std::size_t>(i - spec.cells_upstream)];
    for (long j = 0; j <= nj; ++j) g.x(i, j) = x, g.y(i, j) = ys[static_cast<std::size_t>(j)];
  }
  return g;
}

Schema flat_plate_mesh_schema() {
  const FlatPlateGridSpec d;
  Schema s(
      "NASA TMR's 2D zero-pressure-gradient flat plate (turbmodels.larc.nasa.gov/flatplate.html): "
      "a rectangle x ∈ [x_inflow, x_outflow], y ∈ [0, height]; j = 0 is a symmetry plane ahead "
      "of x = 0 and a no-slip adiabatic wall from there on, i = 0 and i = ni characteristic "
      "inflow and outflow, y = height a far field. Cells grow geometrically from the leading "
      "edge (both ways) and from the wall. Lengths in the solver's reference length (Reynolds "
      "number per unit length); docs/validation/rans.md");
  s.integer("cells_upstream", "cells along the symmetry plane, x ∈ [x_inflow, 0]")
      .at_least(1)
      .at_most(100000)
      .fallback(std::to_string(d.cells_upstream));
  s.integer("cells_plate", "cells along the wall, x ∈ [0, x_outflow]")
      .at_least(1)
      .at_most(100000)
      .fallback(std::to_string(d.cells_plate));
  s.integer("cells_normal", "cells from the wall to y = height")
      .at_least(1)
      .at_most(100000)
      .fallback(std::to_string(d.cells_normal));
  s.real("x_inflow", "x of the inflow boundary (TMR: −0.33)").below(0).fallback("-0.33");
  s.real("x_outflow", "x of the outflow boundary, the plate's end (TMR: 2)").above(0).fallback("2");
  s.real("height", "y of the upper (far-field) boundary (TMR: 1)").above(0).fallback("1");
  s.real("leading_edge_spacing", "Δx of the cells either side of the leading edge x = 0")
      .above(0)
      .fallback(fmt::format("{}", d.leading_edge_spacing));
  s.real("wall_spacing",
         "Δy of the wall row (5e-6: the first cell centre at y⁺ ≈ 0.5 at x = 0.97, Re 5e6)")
      .above(0)
      .fallback(fmt::format("{}", d.wall_spacing));
  return s;
}

FlatPlateGridSpec flat_plate_grid_spec(const CaseNode& m) {
  FlatPlateGridSpec spec;
  spec.cells_upstream = static_cast<long>(m.integer("cells_upstream"));
  spec.cells_plate = static_cast<long>(m.integer("cells_plate"));
  spec.cells_normal = static_cast<long>(m.integer("cells_normal"));
  spec.x_inflow = m.real("x_inflow");
  spec.x_outflow = m.real("x_outflow");
  spec.height = m.real("height");
  spec.leading_edge_spacing = m.real("leading_edge_spacing");
  spec.wall_spacing = m.real("wall_spacing");
  return spec;
}

CurvilinearGrid build_flat_plate_grid(const CaseNode& m) {
  try {
    return build_flat_plate_grid(flat_plate_grid_spec(m));
  } catch (const InputError& e) {
    if (!e.context().file.empty()) throw;
    m.fail("", e.detail());
  }
}

}  // namespace surrox::mesh
