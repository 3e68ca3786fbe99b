#include "mesh/grid_quality.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace surrox::mesh {
namespace {

constexpr double kQualityPi = 3.14159265358979323846;

void keep_min(GridExtreme& e, double v, long i, long j) {
  if (v < e.value) e = {v, i, j};
}
void keep_max(GridExtreme& e, double v, long i, long j) {
  if (v > e.value) e = {v, i, j};
}

nlohmann::json to_json(const GridExtreme& e) {
  return {{"value", e.value}, {"i", e.i}, {"j", e.j}};
}

}  // namespace

GridQuality grid_quality(const CurvilinearGrid& g) {
  const long ni = g.cells_i(), nj = g.cells_j();
  GridQuality q;
  q.cells = ni * nj;
  const double inf = std::numeric_limits<double>::infinity();
  q.min_area.value = q.min_normalized_jacobian.value = q.min_first_cell_height.value = inf;
  q.max_skewness.value = q.max_aspect_ratio.value = q.max_growth_j.value = q.max_growth_i.value =
      -inf;
  q.max_wall_orthogonality_deg.value = q.max_first_cell_height.value = -inf;
  auto width = [&](long i, long j) {  // mean length of the cell's two i-direction sides
    return 0.5 * (std::hypot(g.x(i + 1, j) - g.x(i, j), g.y(i + 1, j) - g.y(i, j)) +
                  std::hypot(g.x(i + 1, j + 1) - g.x(i, j + 1), g.y(i + 1, j + 1) - g.y(i, j + 1)));
  };
  auto height = [&](long i, long j) {  // mean length of the two j-direction sides
    return 0.5 * (std::hypot(g.x(i, j + 1) - g.x(i, j), g.y(i, j + 1) - g.y(i, j)) +
                  std::hypot(g.x(i + 1, j + 1) - g.x(i + 1, j), g.y(i + 1, j + 1) - g.y(i + 1, j)));
  };
  for (long i = 0; i < ni; ++i) {
    for (long j = 0; j < nj; ++j) {
      const double px[4] = {g.x(i, j), g.x(i + 1, j), g.x(i + 1, j + 1), g.x(i, j + 1)};
      const double py[4] = {g.y(i, j), g.y(i + 1, j), g.y(i + 1, j + 1), g.y(i, j + 1)};
      double a2 = 0;
      for (int k = 0; k < 4; ++k) {
        const int l = (k + 1) % 4;
        a2 += (px[k] - px[0]) * (py[l] - py[0]) - (px[l] - px[0]) * (py[k] - py[0]);
      }
      const double area = 0.5 * a2;
      if (!(area > 0)) ++q.nonpositive_cells;
      keep_min(q.min_area, area, i, j);
      double jac = inf, amin = inf, amax = -inf;
      for (int k = 0; k < 4; ++k) {
        const int next = (k + 1) % 4, prev = (k + 3) % 4;
        const double ex = px[next] - px[k], ey = py[next] - py[k];
        const double fx = px[prev] - px[k], fy = py[prev] - py[k];
        const double cr = ex * fy - ey * fx, dot = ex * fx + ey * fy;
        const double len = std::hypot(ex, ey) * std::hypot(fx, fy);
        jac = std::min(jac, len > 0 ? cr / len : -1.0);
        double angle =
            std::atan2(cr, dot) * 180 / kQualityPi;  // interior angle, negative when reflex
        if (angle < 0) angle += 360;
        amin = std::min(amin, angle);
        amax = std::max(amax, angle);
      }
      keep_min(q.min_normalized_jacobian, jac, i, j);
      keep_max(q.max_skewness, std::max((amax - 90) / 90, (90 - amin) / 90), i, j);
      const double w = width(i, j), h = height(i, j);
      keep_max(q.max_aspect_ratio, std::max(w, h) / std::min(w, h), i, j);
      if (j + 1 < nj) {
        const double r = height(i, j + 1) / h;
        keep_max(q.max_growth_j, std::max(r, 1 / r), i, j);
      }
      const double r = width((i + 1) % ni, j) / w;
      keep_max(q.max_growth_i, std::max(r, 1 / r), i, j);
    }
  }
  // Wall: node i with its neighbours i ± 1 (periodic; node ni repeats node 0).
  for (long i = 0; i < ni; ++i) {
    const long im = (i + ni - 1) % ni, ip = i + 1;
    const double pa = std::atan2(g.y(i, 0) - g.y(im, 0), g.x(i, 0) - g.x(im, 0));
    const double pb = std::atan2(g.y(ip, 0) - g.y(i, 0), g.x(ip, 0) - g.x(i, 0));
    double turn = std::remainder(pb - pa, 2 * kQualityPi);
    if (turn > kQualityPi - 1e-12) turn -= 2 * kQualityPi;
    const double pm = pa + 0.5 * turn;
    const double nx = -std::sin(pm), ny = std::cos(pm);
    const double gx = g.x(i, 1) - g.x(i, 0), gy = g.y(i, 1) - g.y(i, 0);
    const double len = std::hypot(gx, gy);
    const double c = std::clamp((gx * nx + gy * ny) / len, -1.0, 1.0);
    keep_max(q.max_wall_orthogonality_deg, std::acos(c) * 180 / kQualityPi, i, 0);
    keep_min(q.min_first_cell_height, gx * nx + gy * ny, i, 0);
    keep_max(q.max_first_cell_height, gx * nx + gy * ny, i, 0);
  }
  return q;
}

nlohmann::json to_json(const GridQuality& q) {
  return {{"cells", q.cells},
          {"nonpositive_cells", q.nonpositive_cells},
          {"min_area", to_json(q.min_area)},
          {"min_normalized_jacobian", to_json(q.min_normalized_jacobian)},
          {"max_skewness", to_json(q.max_skewness)},
          {"max_aspect_ratio", to_json(q.max_aspect_ratio)},
          {"max_growth_j", to_json(q.max_growth_j)},
          {"max_growth_i", to_json(q.max_growth_i)},
          {"max_wall_orthogonality_deg", to_json(q.max_wall_orthogonality_deg)},
          {"min_first_cell_height", to_json(q.min_first_cell_height)},
          {"max_first_cell_height", to_json(q.max_first_cell_height)}};
}

}  // namespace surrox::mesh
