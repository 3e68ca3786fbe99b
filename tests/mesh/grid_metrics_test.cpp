// ctest-labels: unit
// ctest-libraries: surrox_mesh
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "mesh/curvilinear_grid.hpp"

namespace surrox::mesh {
namespace {

// Polar O-grid around a circle of radius r0 out to r1: i runs clockwise (like the airfoil O-grid,
// TE → lower → LE → upper), j outward with geometric growth.
CurvilinearGrid annulus(long ni, long nj, double r0, double r1) {
  CurvilinearGrid g;
  g.x = HostMatrix("x", ni + 1, nj + 1);
  g.y = HostMatrix("y", ni + 1, nj + 1);
  for (long i = 0; i <= ni; ++i) {
    const double theta = -2.0 * M_PI * static_cast<double>(i % ni) / static_cast<double>(ni);
    for (long j = 0; j <= nj; ++j) {
      const double r = r0 * std::pow(r1 / r0, static_cast<double>(j) / static_cast<double>(nj));
      g.x(i, j) = r * std::cos(theta);
      g.y(i, j) = r * std::sin(theta);
    }
  }
  return g;
}

TEST(GridMetrics, AnnulusAreasSumToTheExactPolygonArea) {
  const long ni = 96, nj = 40;
  const double r0 = 0.5, r1 = 10.0;
  const GridMetrics m = compute_metrics(annulus(ni, nj, r0, r1));
  double total = 0;
  for (long i = 0; i < ni; ++i)
    for (long j = 0; j < nj; ++j) {
      EXPECT_GT(m.area(i, j), 0.0);
      total += m.area(i, j);
    }
  // Inscribed regular ni-gons: area (ni / 2) r² sin(2π / ni).
  const double polygon = 0.5 * ni * std::sin(2 * M_PI / ni);
  EXPECT_NEAR(total, polygon * (r1 * r1 - r0 * r0), 1e-10 * total);
}

TEST(GridMetrics, FaceNormalsCloseEveryCellAndPointAlongIncreasingIndices) {
  const long ni = 48, nj = 20;
  const CurvilinearGrid g = annulus(ni, nj, 1.0, 5.0);
  const GridMetrics m = compute_metrics(g);
  double worst = 0;
  for (long i = 0; i < ni; ++i)
    for (long j = 0; j < nj; ++j) {
      const double fx = m.sx_i(i + 1, j) - m.sx_i(i, j) + m.sx_j(i, j + 1) - m.sx_j(i, j);
      const double fy = m.sy_i(i + 1, j) - m.sy_i(i, j) + m.sy_j(i, j + 1) - m.sy_j(i, j);
      worst = std::max(worst, std::hypot(fx, fy));
    }
  EXPECT_LT(worst, 1e-13);
  // Wall normals point out of the body (into the flow): along +r at the face midpoint.
  for (long i = 0; i < ni; ++i) {
    const double mx = 0.5 * (g.x(i, 0) + g.x(i + 1, 0)), my = 0.5 * (g.y(i, 0) + g.y(i + 1, 0));
    EXPECT_GT(m.sx_j(i, 0) * mx + m.sy_j(i, 0) * my, 0.0) << "wall face " << i;
    // Face length equals the chord of the wall segment.
    EXPECT_NEAR(std::hypot(m.sx_j(i, 0), m.sy_j(i, 0)), 2 * std::sin(M_PI / ni), 1e-14);
  }
  // i-face normals point toward +i (clockwise tangent, -e_theta).
  const double theta = 0.0;  // face i = 0 lies on theta = 0, cells at i ≥ 0 have theta < 0
  EXPECT_NEAR(m.sx_i(0, 3), 0.0, 1e-14);
  EXPECT_LT(m.sy_i(0, 3), std::sin(theta));
}

TEST(GridMetrics, CentroidsAndWallDistanceOnARectangle) {
  // A straight wall y = 0, x in [0, 4]; rows at y = 0, 0.1, 0.3, 0.7.
  CurvilinearGrid g;
  const double ys[] = {0.0, 0.1, 0.3, 0.7};
  g.x = HostMatrix("x", 5, 4);
  g.y = HostMatrix("y", 5, 4);
  for (long i = 0; i <= 4; ++i)
    for (long j = 0; j <= 3; ++j) {
      g.x(i, j) = static_cast<double>(i);
      g.y(i, j) = ys[j];
    }
  const GridMetrics m = compute_metrics(g);
  EXPECT_DOUBLE_EQ(m.area(2, 1), 0.2);
  EXPECT_DOUBLE_EQ(m.xc(2, 1), 2.5);
  EXPECT_DOUBLE_EQ(m.yc(2, 1), 0.2);
  EXPECT_DOUBLE_EQ(m.wall_distance(0, 0), 0.05);
  EXPECT_DOUBLE_EQ(m.wall_distance(3, 2), 0.5);
  // A trapezoid's centroid is not the mean of its corners.
  g.y(1, 1) = 0.2;  // raises a corner shared by cells (0,0), (1,0), (0,1), (1,1)
  const GridMetrics t = compute_metrics(g);
  // Cell (0,0): corners (0,0) (1,0) (1,0.2) (0,0.1); area 0.15; yc = Σ over the trapezoid.
  EXPECT_NEAR(t.area(0, 0), 0.15, 1e-15);
  const double yc = (1.0 / 0.15) * (0.5 * (0.1 * 0.1 + 0.1 * 0.2 + 0.2 * 0.2) / 3.0);
  EXPECT_NEAR(t.yc(0, 0), yc, 1e-14);
}

TEST(GridMetrics, WallDistanceIsExactAroundACircle) {
  const long ni = 128, nj = 16;
  const double r0 = 1.0;
  const CurvilinearGrid g = annulus(ni, nj, r0, 3.0);
  const GridMetrics m = compute_metrics(g);
  // The nearest point of the inscribed polygon to a centroid at angle φ in the middle of a
  // segment is the segment's midpoint at radius r0 cos(π / ni) (centroids lie on the bisector).
  for (long i = 0; i < ni; i += 7)
    for (long j = 0; j < nj; j += 3) {
      const double rc = std::hypot(m.xc(i, j), m.yc(i, j));
      EXPECT_NEAR(m.wall_distance(i, j), rc - r0 * std::cos(M_PI / ni), 1e-12);
    }
}

TEST(GridMetrics, WallDistanceEqualsABruteForceSearchOnAnIrregularWall) {
  // A wavy, star-shaped wall (concave and convex parts): the tree search must find the same
  // nearest segment as checking every one.
  const long ni = 300, nj = 24;
  CurvilinearGrid g = annulus(ni, nj, 1.0, 6.0);
  for (long i = 0; i <= ni; ++i) {
    const double t = -2.0 * M_PI * static_cast<double>(i % ni) / ni;
    const double r0 = 1.0 + 0.3 * std::sin(5 * t) + 0.05 * std::cos(37 * t);
    for (long j = 0; j <= nj; ++j) {
      const double r = r0 + (6.0 - r0) * std::pow(static_cast<double>(j) / nj, 2);
      g.x(i, j) = r * std::cos(t);
      g.y(i, j) = r * std::sin(t);
    }
  }
  const GridMetrics m = compute_metrics(g);
  double worst = 0;
  for (long i = 0; i < ni; ++i)
    for (long j = 0; j < nj; ++j) {
      double best = 1e300;
      for (long s = 0; s < ni; ++s) {
        const double ax = g.x(s, 0), ay = g.y(s, 0), dx = g.x(s + 1, 0) - ax,
                     dy = g.y(s + 1, 0) - ay;
        double u = ((m.xc(i, j) - ax) * dx + (m.yc(i, j) - ay) * dy) / (dx * dx + dy * dy);
        u = std::clamp(u, 0.0, 1.0);
        best = std::min(best, std::hypot(ax + u * dx - m.xc(i, j), ay + u * dy - m.yc(i, j)));
      }
      worst = std::max(worst, std::abs(best - m.wall_distance(i, j)));
    }
  EXPECT_LT(worst, 1e-14);
}

TEST(GridMetrics, FoldedGridNamesTheWorstCell) {
  CurvilinearGrid g = annulus(32, 8, 1.0, 4.0);
  g.x(5, 3) = -g.x(5, 3) * 3;  // drags a node across the grid
  g.y(5, 3) = -g.y(5, 3) * 3;
  try {
    compute_metrics(g);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("non-positive area"), std::string::npos) << what;
    EXPECT_NE(what.find("cell (i="), std::string::npos) << what;
    EXPECT_EQ(e.exit_code(), ExitCode::kBadInput);
  }
  // Counter-clockwise i (left-handed) is rejected too.
  CurvilinearGrid l = annulus(16, 4, 1.0, 2.0);
  for (long i = 0; i <= 16; ++i)
    for (long j = 0; j <= 4; ++j) l.y(i, j) = -l.y(i, j);
  EXPECT_THROW(compute_metrics(l), InputError);
}

}  // namespace
}  // namespace surrox::mesh
