#include "solvers/airfoil/slab_geometry.hpp"

#include <cmath>

namespace surrox::solvers::airfoil {

ChordLine chord_line_of(const mesh::CurvilinearGrid& grid) {
  const long ni = grid.cells_i();
  const double xte = grid.x(0, 0), yte = grid.y(0, 0);
  long le = 0;
  double far = -1;
  for (long i = 0; i < ni; ++i) {
    const double d = std::hypot(grid.x(i, 0) - xte, grid.y(i, 0) - yte);
    if (d > far) far = d, le = i;
  }
  ChordLine c;
  c.i_le = le;
  c.x_le = grid.x(le, 0);
  c.y_le = grid.y(le, 0);
  c.chord = far;
  c.x_ref = c.x_le + 0.25 * (xte - c.x_le);
  c.y_ref = c.y_le + 0.25 * (yte - c.y_le);
  c.dx = (xte - c.x_le) / c.chord;
  c.dy = (yte - c.y_le) / c.chord;
  return c;
}

SlabGeometry::SlabGeometry(const mesh::GridMetrics& m, const mesh::CurvilinearGrid& grid,
                           const Slab& slab) {
  const long ni = slab.ni(), nj = slab.nj(), nl = slab.rows(), j0 = slab.first_row();
  area = Array2("SlabGeometry::area", nl, ni);
  wall_distance = Array2("SlabGeometry::wall_distance", nl, ni);
  xc = Array2("SlabGeometry::xc", nl + 2, ni);
  yc = Array2("SlabGeometry::yc", nl + 2, ni);
  xn = Array2("SlabGeometry::xn", nl + 1, ni + 1);
  yn = Array2("SlabGeometry::yn", nl + 1, ni + 1);
  sxi = Array2("SlabGeometry::sx_i", nl, ni + 1);
  syi = Array2("SlabGeometry::sy_i", nl, ni + 1);
  sxj = Array2("SlabGeometry::sx_j", nl + 1, ni);
  syj = Array2("SlabGeometry::sy_j", nl + 1, ni);
  vol_j = Array2("SlabGeometry::volume_j", nl + 1, ni);
  auto h_area = Kokkos::create_mirror_view(area);
  auto h_wd = Kokkos::create_mirror_view(wall_distance);
  auto h_xc = Kokkos::create_mirror_view(xc), h_yc = Kokkos::create_mirror_view(yc);
  auto h_xn = Kokkos::create_mirror_view(xn), h_yn = Kokkos::create_mirror_view(yn);
  auto h_sxi = Kokkos::create_mirror_view(sxi), h_syi = Kokkos::create_mirror_view(syi);
  auto h_sxj = Kokkos::create_mirror_view(sxj), h_syj = Kokkos::create_mirror_view(syj);
  auto h_vol_j = Kokkos::create_mirror_view(vol_j);
  for (long j = 0; j < nl; ++j)
    for (long i = 0; i < ni; ++i) {
      h_area(j, i) = m.area(i, j0 + j);
      h_wd(j, i) = m.wall_distance(i, j0 + j);
    }
  for (long j = -1; j <= nl; ++j) {
    const long g = j0 + j;
    for (long i = 0; i < ni; ++i) {
      if (g < 0) {
        const double xw = 0.5 * (grid.x(i, 0) + grid.x(i + 1, 0)),
                     yw = 0.5 * (grid.y(i, 0) + grid.y(i + 1, 0));
        h_xc(j + 1, i) = 2 * xw - m.xc(i, 0);
        h_yc(j + 1, i) = 2 * yw - m.yc(i, 0);
      } else if (g >= nj) {
        const double xf = 0.5 * (grid.x(i, nj) + grid.x(i + 1, nj)),
                     yf = 0.5 * (grid.y(i, nj) + grid.y(i + 1, nj));
        h_xc(j + 1, i) = 2 * xf - m.xc(i, nj - 1);
        h_yc(j + 1, i) = 2 * yf - m.yc(i, nj - 1);
      } else {
        h_xc(j + 1, i) = m.xc(i, g);
        h_yc(j + 1, i) = m.yc(i, g);
      }
    }
  }
  for (long j = 0; j <= nl; ++j)
    for (long i = 0; i <= ni; ++i) h_xn(j, i) = grid.x(i, j0 + j), h_yn(j, i) = grid.y(i, j0 + j);
  for (long j = 0; j < nl; ++j)
    for (long i = 0; i <= ni; ++i) h_sxi(j, i) = m.sx_i(i, j0 + j), h_syi(j, i) = m.sy_i(i, j0 + j);
  for (long j = 0; j <= nl; ++j) {
    const long g = j0 + j, below = g > 0 ? g - 1 : 0, above = g < nj ? g : nj - 1;
    for (long i = 0; i < ni; ++i) {
      h_sxj(j, i) = m.sx_j(i, g), h_syj(j, i) = m.sy_j(i, g);
      h_vol_j(j, i) = 0.5 * (m.area(i, below) + m.area(i, above));
    }
  }
  Kokkos::deep_copy(area, h_area);
  Kokkos::deep_copy(wall_distance, h_wd);
  Kokkos::deep_copy(xc, h_xc), Kokkos::deep_copy(yc, h_yc);
  Kokkos::deep_copy(xn, h_xn), Kokkos::deep_copy(yn, h_yn);
  Kokkos::deep_copy(sxi, h_sxi), Kokkos::deep_copy(syi, h_syi);
  Kokkos::deep_copy(sxj, h_sxj), Kokkos::deep_copy(syj, h_syj);
  Kokkos::deep_copy(vol_j, h_vol_j);
}

}  // namespace surrox::solvers::airfoil
