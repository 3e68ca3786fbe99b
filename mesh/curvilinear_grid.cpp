#include "mesh/curvilinear_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

#include "core/error.hpp"

namespace surrox::mesh {
namespace {

using HostExec = Kokkos::DefaultHostExecutionSpace;
using Policy2 = Kokkos::MDRangePolicy<HostExec, Kokkos::Rank<2>>;

// Distance from (px, py) to the segment (ax, ay)–(bx, by).
inline double segment_distance(double px, double py, double ax, double ay, double bx, double by) {
  const double dx = bx - ax, dy = by - ay;
  const double len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  const double ex = ax + t * dx - px, ey = ay + t * dy - py;
  return std::sqrt(ex * ex + ey * ey);
}

// Bounding boxes of the wall segments (i, 0)–(i+1, 0) in an implicit binary tree: node 1 is the
// root, node k has children 2k and 2k + 1, leaves start at `leaves` (a power of two ≥ ni).
class WallTree {
 public:
  // Segments [first, ni) of j = 0; those before `first` (a symmetry plane) keep empty boxes.
  WallTree(const HostMatrix& x, const HostMatrix& y, long ni, long first) : x_(x), y_(y) {
    while (leaves_ < ni) leaves_ *= 2;
    const double inf = std::numeric_limits<double>::infinity();
    lo_x_.assign(2 * leaves_, inf);
    lo_y_.assign(2 * leaves_, inf);
    hi_x_.assign(2 * leaves_, -inf);
    hi_y_.assign(2 * leaves_, -inf);
    for (long s = first; s < ni; ++s) {
      const long k = leaves_ + s;
      lo_x_[k] = std::min(x(s, 0), x(s + 1, 0));
      hi_x_[k] = std::max(x(s, 0), x(s + 1, 0));
      lo_y_[k] = std::min(y(s, 0), y(s + 1, 0));
      hi_y_[k] = std::max(y(s, 0), y(s + 1, 0));
    }
    for (long k = leaves_ - 1; k >= 1; --k) {
      lo_x_[k] = std::min(lo_x_[2 * k], lo_x_[2 * k + 1]);
      hi_x_[k] = std::max(hi_x_[2 * k], hi_x_[2 * k + 1]);
      lo_y_[k] = std::min(lo_y_[2 * k], lo_y_[2 * k + 1]);
      hi_y_[k] = std::max(hi_y_[2 * k], hi_y_[2 * k + 1]);
    }
  }

  double distance(double px, double py) const {
    double best = std::numeric_limits<double>::infinity();
    long stack[128];
    int top = 0;
    stack[top++] = 1;
    while (top > 0) {
      const long k = stack[--top];
      if (box_distance(k, px, py) >= best) continue;
      if (k >= leaves_) {
        const long s = k - leaves_;
        best = std::min(best,
                        segment_distance(px, py, x_(s, 0), y_(s, 0), x_(s + 1, 0), y_(s + 1, 0)));
        continue;
      }
      // Nearer child last, so it is searched first.
      const long a = 2 * k, b = 2 * k + 1;
      const bool a_nearer = box_distance(a, px, py) < box_distance(b, px, py);
      stack[top++] = a_nearer ? b : a;
      stack[top++] = a_nearer ? a : b;
    }
    return best;
  }

 private:
  double box_distance(long k, double px, double py) const {
    if (lo_x_[k] > hi_x_[k]) return std::numeric_limits<double>::infinity();  // empty leaf
    const double dx = std::max({lo_x_[k] - px, px - hi_x_[k], 0.0});
    const double dy = std::max({lo_y_[k] - py, py - hi_y_[k], 0.0});
    return std::sqrt(dx * dx + dy * dy);
  }

  HostMatrix x_, y_;
  long leaves_ = 1;
  std::vector<double> lo_x_, lo_y_, hi_x_, hi_y_;
};

}  // namespace

GridMetrics compute_metrics(const CurvilinearGrid& grid) {
  const long ni = grid.cells_i(), nj = grid.cells_j();
  if (ni < 1 || nj < 1 || grid.y.extent(0) != grid.x.extent(0) ||
      grid.y.extent(1) != grid.x.extent(1)) {
    throw InputError("curvilinear grid needs at least one cell and x, y of equal shape (got " +
                     std::to_string(grid.x.extent(0)) + " × " + std::to_string(grid.x.extent(1)) +
                     " nodes)");
  }
  const HostMatrix x = grid.x, y = grid.y;
  GridMetrics m;
  m.area = HostMatrix("area", ni, nj);
  m.xc = HostMatrix("xc", ni, nj);
  m.yc = HostMatrix("yc", ni, nj);
  m.sx_i = HostMatrix("sx_i", ni + 1, nj);
  m.sy_i = HostMatrix("sy_i", ni + 1, nj);
  m.sx_j = HostMatrix("sx_j", ni, nj + 1);
  m.sy_j = HostMatrix("sy_j", ni, nj + 1);
  m.wall_distance = HostMatrix("wall_distance", ni, nj);
  const GridMetrics& out = m;

  // Area and centroid of the quadrilateral A(i,j) B(i+1,j) C(i+1,j+1) D(i,j+1) (shoelace).
  Kokkos::parallel_for("CurvilinearGrid::compute_metrics::cells", Policy2({0, 0}, {ni, nj}),
                       [=](long i, long j) {
                         const double px[4] = {x(i, j), x(i + 1, j), x(i + 1, j + 1), x(i, j + 1)};
                         const double py[4] = {y(i, j), y(i + 1, j), y(i + 1, j + 1), y(i, j + 1)};
                         // Coordinates relative to the first corner keep round-off small far from
                         // the origin.
                         double a2 = 0, cx = 0, cy = 0;
                         for (int k = 0; k < 4; ++k) {
                           const int l = (k + 1) % 4;
                           const double xk = px[k] - px[0], yk = py[k] - py[0];
                           const double xl = px[l] - px[0], yl = py[l] - py[0];
                           const double cross = xk * yl - xl * yk;
                           a2 += cross;
                           cx += (xk + xl) * cross;
                           cy += (yk + yl) * cross;
                         }
                         out.area(i, j) = 0.5 * a2;
                         if (a2 != 0.0) {
                           out.xc(i, j) = px[0] + cx / (3.0 * a2);
                           out.yc(i, j) = py[0] + cy / (3.0 * a2);
                         } else {
                           out.xc(i, j) = 0.25 * (px[0] + px[1] + px[2] + px[3]);
                           out.yc(i, j) = 0.25 * (py[0] + py[1] + py[2] + py[3]);
                         }
                       });
  // i-faces: edge (i,j)→(i,j+1) rotated clockwise points toward +i on a right-handed grid.
  Kokkos::parallel_for("CurvilinearGrid::compute_metrics::i_faces", Policy2({0, 0}, {ni + 1, nj}),
                       [=](long i, long j) {
                         out.sx_i(i, j) = y(i, j + 1) - y(i, j);
                         out.sy_i(i, j) = -(x(i, j + 1) - x(i, j));
                       });
  // j-faces: edge (i,j)→(i+1,j) rotated counter-clockwise points toward +j.
  Kokkos::parallel_for("CurvilinearGrid::compute_metrics::j_faces", Policy2({0, 0}, {ni, nj + 1}),
                       [=](long i, long j) {
                         out.sx_j(i, j) = -(y(i + 1, j) - y(i, j));
                         out.sy_j(i, j) = x(i + 1, j) - x(i, j);
                       });

  // Exact distance to the wall part of the polyline j = 0, by branch and bound over a
  // bounding-box tree of its segments (O(log ni) per cell instead of O(ni)).
  if (grid.wall_begin < 0 || grid.wall_begin >= ni)
    throw InputError("curvilinear grid: the wall's first face " + std::to_string(grid.wall_begin) +
                     " is outside the " + std::to_string(ni) + " faces of j = 0");
  const WallTree tree(x, y, ni, grid.wall_begin);
  const WallTree* t = &tree;
  Kokkos::parallel_for(
      "CurvilinearGrid::compute_metrics::wall_distance", Policy2({0, 0}, {ni, nj}),
      [=](long i, long j) { out.wall_distance(i, j) = t->distance(out.xc(i, j), out.yc(i, j)); });
  Kokkos::fence();

  long bad = 0, worst_i = 0, worst_j = 0;
  double worst = std::numeric_limits<double>::infinity();
  for (long i = 0; i < ni; ++i) {
    for (long j = 0; j < nj; ++j) {
      const double a = m.area(i, j);
      if (!(a > 0.0)) ++bad;
      if (a < worst || std::isnan(a)) {
        worst = a;
        worst_i = i;
        worst_j = j;
        if (std::isnan(a)) break;
      }
    }
  }
  if (bad > 0) {
    std::ostringstream msg;
    msg << "invalid grid: " << bad << " of " << ni * nj
        << " cells have a non-positive area (folded or left-handed); worst is cell (i=" << worst_i
        << ", j=" << worst_j << ") with area " << worst << " near (x=" << m.xc(worst_i, worst_j)
        << ", y=" << m.yc(worst_i, worst_j) << ")";
    throw InputError(msg.str());
  }
  return m;
}

}  // namespace surrox::mesh
