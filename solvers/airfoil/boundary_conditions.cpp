#include "solvers/airfoil/boundary_conditions.hpp"

#include "solvers/airfoil/flow_level.hpp"

namespace surrox::solvers::airfoil {

void fill_boundary_rows(FlowLevel& level) {
  const bool inner = level.slab.has_wall(), outer = level.slab.has_far_field();
  if (!inner && !outer) return;
  const AirfoilParameters& p = level.parameters;
  const SlabGeometry& geometry = level.geometry;
  const Array3 w = level.w;
  const Array2 sxj = geometry.sxj, syj = geometry.syj, xn = geometry.xn, yn = geometry.yn;
  const long nl = level.rows();
  const bool wall = p.inner == InnerBoundary::kWall, viscous = level.viscous;
  const long wall_begin = level.wall_begin;  // before it: a symmetry plane (slip)
  const double x_ref = level.chord_line.x_ref, y_ref = level.chord_line.y_ref;
  const double alpha = level.alpha, mach = p.mach, p_inf = level.p_inf;
  const double circulation =
      p.far_field == FarField::kVortex && wall && level.periodic ? level.circulation : 0.0;
  Kokkos::parallel_for(
      "BoundaryConditions::fill_rows", Range1(0, level.ni()), KOKKOS_LAMBDA(long i) {
        // Far field (j = nj, the slab's last face): rows nl + 2 and nl + 3.
        if (outer) {
          const double sx = sxj(nl, i), sy = syj(nl, i), s = sqrt(sx * sx + sy * sy);
          const double xf = 0.5 * (xn(nl, i) + xn(nl, i + 1)),
                       yf = 0.5 * (yn(nl, i) + yn(nl, i + 1));
          const State wf = freestream_at(xf, yf, x_ref, y_ref, alpha, mach, p_inf, circulation);
          const State wi{{w(0, nl + 1, i), w(1, nl + 1, i), w(2, nl + 1, i), w(3, nl + 1, i)}};
          const State wb = far_field_state(wi, wf, sx / s, sy / s);
          for (int k = 0; k < 4; ++k) w(k, nl + 2, i) = w(k, nl + 3, i) = wb[k];
        }
        if (!inner) return;
        const double sx = sxj(0, i), sy = syj(0, i), s = sqrt(sx * sx + sy * sy);
        const double nx = sx / s, ny = sy / s;
        if (wall) {
          // Rows 1 and 0 mirror rows 2 and 3 (cells j = 0, 1) in the wall face.
          for (int g = 0; g < 2; ++g) {
            const long in = 2 + g, gh = 1 - g;
            const State wi{{w(0, in, i), w(1, in, i), w(2, in, i), w(3, in, i)}};
            const State wg = wall_ghost_state(wi, nx, ny, viscous && i >= wall_begin);
            for (int k = 0; k < 4; ++k) w(k, gh, i) = wg[k];
          }
        } else {
          const double xf = 0.5 * (xn(0, i) + xn(0, i + 1)), yf = 0.5 * (yn(0, i) + yn(0, i + 1));
          const State wf = freestream_at(xf, yf, x_ref, y_ref, alpha, mach, p_inf, 0.0);
          const State wi{{w(0, 2, i), w(1, 2, i), w(2, 2, i), w(3, 2, i)}};
          const State wb = far_field_state(wi, wf, -nx, -ny);
          for (int k = 0; k < 4; ++k) w(k, 0, i) = w(k, 1, i) = wb[k];
        }
      });
}

}  // namespace surrox::solvers::airfoil
