// ctest-labels: unit
// ctest-libraries: surrox_mesh
#include "mesh/grid_quality.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace surrox::mesh {
namespace {

// Polar O-grid (clockwise i, outward j) with radii r0 q^j.
CurvilinearGrid quality_annulus(long ni, long nj, double r0, double q) {
  CurvilinearGrid g;
  g.x = HostMatrix("x", ni + 1, nj + 1);
  g.y = HostMatrix("y", ni + 1, nj + 1);
  for (long i = 0; i <= ni; ++i)
    for (long j = 0; j <= nj; ++j) {
      const double t = -2 * M_PI * static_cast<double>(i % ni) / static_cast<double>(ni);
      const double r = r0 * std::pow(q, static_cast<double>(j));
      g.x(i, j) = r * std::cos(t);
      g.y(i, j) = r * std::sin(t);
    }
  return g;
}

TEST(GridQuality, PolarGridFiguresAreExact) {
  const long ni = 64, nj = 10;
  const double r0 = 1.0, q = 1.2;
  const GridQuality g = grid_quality(quality_annulus(ni, nj, r0, q));
  EXPECT_EQ(g.cells, ni * nj);
  EXPECT_EQ(g.nonpositive_cells, 0);
  // Isosceles trapezoids with corner angles 90° ± 180°/ni.
  EXPECT_NEAR(g.max_skewness.value, 2.0 / ni, 1e-12);
  EXPECT_NEAR(g.min_normalized_jacobian.value, std::cos(M_PI / ni), 1e-12);
  // Heights grow by q exactly; widths are equal around.
  EXPECT_NEAR(g.max_growth_j.value, q, 1e-12);
  EXPECT_NEAR(g.max_growth_i.value, 1.0, 1e-12);
  // Radial grid lines are normal to the wall; the first cell is r0 (q − 1) high.
  EXPECT_LT(g.max_wall_orthogonality_deg.value, 1e-6);
  EXPECT_NEAR(g.min_first_cell_height.value, r0 * (q - 1), 1e-12);
  EXPECT_NEAR(g.max_first_cell_height.value, r0 * (q - 1), 1e-12);
  // Smallest cell: the first layer, area ½ sin(2π/ni) (r1² − r0²).
  EXPECT_NEAR(g.min_area.value, 0.5 * std::sin(2 * M_PI / ni) * (q * q - 1), 1e-12);
  EXPECT_EQ(g.min_area.j, 0);
  // Aspect ratio, the same in every layer (the cells are similar): mean width of the j = 0 cells
  // (chords 2 r sin(π/ni) at r = 1 and q) over their height q − 1.
  const double width = 0.5 * (1 + q) * 2 * std::sin(M_PI / ni), height = q - 1;
  EXPECT_NEAR(g.max_aspect_ratio.value, std::max(width, height) / std::min(width, height), 1e-9);
}

TEST(GridQuality, ShearedAndTiltedCellsAreLocated) {
  CurvilinearGrid g = quality_annulus(32, 6, 1.0, 1.3);
  // Tilt the grid line of node (7, 1): the wall angle and the skewness of its cells grow.
  const double dx = g.x(7, 1) - g.x(7, 0), dy = g.y(7, 1) - g.y(7, 0);
  const double a = 20 * M_PI / 180;
  g.x(7, 1) = g.x(7, 0) + dx * std::cos(a) - dy * std::sin(a);
  g.y(7, 1) = g.y(7, 0) + dx * std::sin(a) + dy * std::cos(a);
  const GridQuality q = grid_quality(g);
  EXPECT_NEAR(q.max_wall_orthogonality_deg.value, 20.0, 1e-9);
  EXPECT_EQ(q.max_wall_orthogonality_deg.i, 7);
  EXPECT_TRUE(q.max_skewness.i == 6 || q.max_skewness.i == 7) << q.max_skewness.i;
  EXPECT_EQ(q.max_skewness.j, 0);
  EXPECT_NEAR(q.min_first_cell_height.value, 0.3 * std::cos(a), 1e-12);
}

TEST(GridQuality, FoldedCellsAreCountedNotThrown) {
  CurvilinearGrid g = quality_annulus(16, 4, 1.0, 1.5);
  g.x(3, 2) *= 3;  // pushes a node beyond layer 3
  g.y(3, 2) *= 3;
  const GridQuality q = grid_quality(g);
  EXPECT_GT(q.nonpositive_cells, 0);
  EXPECT_LE(q.min_area.value, 0.0);
  EXPECT_TRUE(q.min_area.i == 2 || q.min_area.i == 3);
  EXPECT_LT(q.min_normalized_jacobian.value, 0.0);
}

TEST(GridQuality, JsonCarriesEveryFigureWithItsCell) {
  const nlohmann::json j = to_json(grid_quality(quality_annulus(16, 4, 1.0, 1.5)));
  EXPECT_EQ(j.at("cells"), 64);
  EXPECT_EQ(j.at("nonpositive_cells"), 0);
  for (const char* key : {"min_area", "min_normalized_jacobian", "max_skewness", "max_aspect_ratio",
                          "max_growth_j", "max_growth_i", "max_wall_orthogonality_deg",
                          "min_first_cell_height", "max_first_cell_height"}) {
    ASSERT_TRUE(j.contains(key)) << key;
    EXPECT_TRUE(j.at(key).contains("value") && j.at(key).contains("i") && j.at(key).contains("j"))
        << key;
  }
  EXPECT_NEAR(j.at("max_growth_j").at("value").get<double>(), 1.5, 1e-12);
}

}  // namespace
}  // namespace surrox::mesh
