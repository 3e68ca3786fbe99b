// ctest-labels: unit
// ctest-libraries: surrox_mesh
#include "mesh/airfoil_grid.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

#include "core/schema_validator.hpp"
#include "mesh/grid_quality.hpp"
#include "support/test_paths.hpp"

namespace surrox::mesh {
namespace {

std::string grid_joukowski_dat() {
  return (surrox::testing::source_dir() / "cases/airfoil/joukowski.dat").string();
}

AirfoilShape airfoil(const std::string& name) {
  return name == "joukowski" ? read_airfoil_file(grid_joukowski_dat()) : naca_airfoil(name);
}

// A validated `mesh:` section from YAML text (file name "mesh.yaml" in errors).
CaseNode mesh_section(const std::string& yaml) {
  static const Schema schema = [] {
    Schema s;
    s.section("mesh", airfoil_mesh_schema(), "the grid");
    return s;
  }();
  auto origin = std::make_shared<CaseOrigin>();
  origin->file = "mesh.yaml";
  CaseNode root(YAML::Load(yaml), origin);
  validate_case(schema, root);
  return root.section("mesh");
}

double polygon_area(const CurvilinearGrid& g, long j) {
  double a = 0;
  for (long i = 0; i < g.cells_i(); ++i) a += g.x(i, j) * g.y(i + 1, j) - g.x(i + 1, j) * g.y(i, j);
  return -0.5 * a;  // clockwise
}

struct Case {
  std::string airfoil;
  double first_cell_height;
};

class AirfoilGridDefaults : public ::testing::TestWithParam<Case> {};

TEST_P(AirfoilGridDefaults, IsValidOrthogonalAtTheWallAndMeetsTheFirstCellHeight) {
  const Case c = GetParam();
  const AirfoilShape shape = airfoil(c.airfoil);
  AirfoilGridOptions o;  // ni = 256, nj = 128, radius 30 chords
  o.first_cell_height = c.first_cell_height;
  AirfoilGridInfo info;
  const auto t0 = std::chrono::steady_clock::now();
  const CurvilinearGrid g = build_airfoil_grid(shape, o, &info);
  const double build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(g.cells_i(), 256);
  ASSERT_EQ(g.cells_j(), 128);
  const auto t1 = std::chrono::steady_clock::now();
  const GridMetrics m = compute_metrics(g);  // throws on any cell area ≤ 0
  const double metrics_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
  const GridQuality q = grid_quality(g);
  std::cout << c.airfoil << " h=" << c.first_cell_height << ": build " << build_ms
            << " ms, metrics " << metrics_ms << " ms, growth " << info.growth_ratio << "\n"
            << to_json(q).dump() << "\n";
  EXPECT_EQ(q.nonpositive_cells, 0);
  EXPECT_GT(q.min_area.value, 0.0);
  EXPECT_GT(q.min_normalized_jacobian.value, 0.0);
  EXPECT_LT(q.max_wall_orthogonality_deg.value, 3.0);
  const double h = c.first_cell_height * shape.chord();
  EXPECT_NEAR(q.min_first_cell_height.value, h, 0.05 * h);
  EXPECT_NEAR(q.max_first_cell_height.value, h, 0.05 * h);
  EXPECT_LT(q.max_growth_j.value, 1.1);
  EXPECT_LT(q.max_skewness.value, 1.0);
  // Periodic in i; the surface is the (resampled) airfoil, the far field a circle of 30 chords
  // about mid-chord.
  const std::size_t le = shape.leading_edge();
  EXPECT_NEAR(info.center_x, 0.5 * (shape.x[0] + shape.x[le]), 1e-3);
  EXPECT_NEAR(info.center_y, 0.5 * (shape.y[0] + shape.y[le]), 1e-3);
  EXPECT_NEAR(info.chord, shape.chord(), 1e-5);
  for (long j = 0; j <= 128; ++j) {
    EXPECT_EQ(g.x(256, j), g.x(0, j));
    EXPECT_EQ(g.y(256, j), g.y(0, j));
  }
  for (long i = 0; i <= 256; ++i)
    EXPECT_NEAR(std::hypot(g.x(i, 128) - info.center_x, g.y(i, 128) - info.center_y),
                30 * info.chord, 1e-9);
  EXPECT_EQ(g.x(0, 0), shape.x[0]);  // the trailing edge is node 0
  // Areas: the grid fills the annulus between the far-field polygon and the airfoil polygon
  // exactly, and π R² − airfoil area up to the polygonal approximation of the circle.
  double total = 0;
  for (long i = 0; i < 256; ++i)
    for (long j = 0; j < 128; ++j) total += m.area(i, j);
  EXPECT_NEAR(total, polygon_area(g, 128) - polygon_area(g, 0), 1e-9 * total);
  const double radius = 30 * info.chord;
  const double exact = M_PI * radius * radius - shape.area();
  EXPECT_NEAR(total, exact, 2e-4 * exact);
  EXPECT_NEAR(polygon_area(g, 0), shape.area(), 1e-4 * shape.area());
}

INSTANTIATE_TEST_SUITE_P(Airfoils, AirfoilGridDefaults,
                         ::testing::Values(Case{"0012", 1e-3}, Case{"2412", 1e-3},
                                           Case{"23012", 1e-3}, Case{"4412", 1e-3},
                                           Case{"joukowski", 1e-3}, Case{"0012", 5e-4},
                                           Case{"2412", 1e-4}, Case{"23012", 1e-4},
                                           Case{"4412", 1e-4}, Case{"joukowski", 1e-4}),
                         [](const auto& info) {
                           std::string h = info.param.first_cell_height == 1e-3   ? "1e3"
                                           : info.param.first_cell_height == 5e-4 ? "5e4"
                                                                                  : "1e4";
                           return (info.param.airfoil == "joukowski"
                                       ? std::string("joukowski")
                                       : "naca" + info.param.airfoil) +
                                  "_h" + h;
                         });

TEST(AirfoilGrid, FirstCellCentroidsLieHalfAFirstCellFromTheWall) {
  AirfoilGridOptions o;
  o.first_cell_height = 5e-4;
  const CurvilinearGrid g = build_airfoil_grid(naca_airfoil("4412"), o);
  const GridMetrics m = compute_metrics(g);
  double worst = 0;
  // Away from the trailing-edge fan (3 cells each side), the first centroid sits at h/2.
  for (long i = 3; i < g.cells_i() - 3; ++i)
    worst = std::max(worst, std::abs(m.wall_distance(i, 0) / (0.5 * o.first_cell_height) - 1));
  EXPECT_LT(worst, 0.02);
  // Wall distance grows monotonically along each grid line near the wall.
  for (long i = 0; i < g.cells_i(); i += 17)
    for (long j = 0; j + 1 < 40; ++j)
      EXPECT_LT(m.wall_distance(i, j), m.wall_distance(i, j + 1)) << i << "," << j;
}

TEST(AirfoilGrid, FaceNormalsCloseEveryCell) {
  const CurvilinearGrid g = build_airfoil_grid(naca_airfoil("2412"), AirfoilGridOptions{});
  const GridMetrics m = compute_metrics(g);
  double worst = 0;
  for (long i = 0; i < g.cells_i(); ++i)
    for (long j = 0; j < g.cells_j(); ++j) {
      const double fx = m.sx_i(i + 1, j) - m.sx_i(i, j) + m.sx_j(i, j + 1) - m.sx_j(i, j);
      const double fy = m.sy_i(i + 1, j) - m.sy_i(i, j) + m.sy_j(i, j + 1) - m.sy_j(i, j);
      const double scale =
          std::hypot(m.sx_j(i, j), m.sy_j(i, j)) + std::hypot(m.sx_i(i, j), m.sy_i(i, j));
      worst = std::max(worst, std::hypot(fx, fy) / scale);
    }
  EXPECT_LT(worst, 1e-12);
  // The wall normals point away from the airfoil: from the wall node toward node (i, 1).
  for (long i = 0; i < g.cells_i(); ++i) {
    const double ox = 0.5 * (g.x(i, 1) + g.x(i + 1, 1) - g.x(i, 0) - g.x(i + 1, 0));
    const double oy = 0.5 * (g.y(i, 1) + g.y(i + 1, 1) - g.y(i, 0) - g.y(i + 1, 0));
    EXPECT_GT(m.sx_j(i, 0) * ox + m.sy_j(i, 0) * oy, 0.0) << i;
  }
}

TEST(AirfoilGrid, BluntTrailingEdgeAndCurvatureSpacingGiveValidGrids) {
  AirfoilGridOptions o;
  o.first_cell_height = 2e-4;
  o.spacing = SurfaceSpacing::kCurvature;
  for (bool closed : {false, true}) {
    const CurvilinearGrid g = build_airfoil_grid(naca_airfoil("4412", closed), o);
    const GridQuality q = grid_quality(g);
    EXPECT_EQ(q.nonpositive_cells, 0);
    EXPECT_LT(q.max_wall_orthogonality_deg.value, 3.0);
    EXPECT_NEAR(q.min_first_cell_height.value, 2e-4, 1e-5);
  }
  // Coarse and fine grids and a near far field stay valid too.
  for (const auto& [ni, nj, radius] :
       {std::tuple<long, long, double>{64, 32, 20}, {512, 192, 50}, {128, 64, 5}}) {
    AirfoilGridOptions c;
    c.cells_around = ni;
    c.cells_normal = nj;
    c.farfield_radius = radius;
    EXPECT_NO_THROW(compute_metrics(build_airfoil_grid(naca_airfoil("23012"), c)))
        << ni << "x" << nj;
  }
}

// wake_growth: the cells either side of the trailing edge's grid line stay narrow downstream
// (the surface's TE spacing carried into the wake), where the default marching fans them out to
// about a hundredth of a chord within 0.05 chord of the TE; both grids stay valid.
TEST(AirfoilGrid, WakeGrowthClustersCellsAcrossTheNearWake) {
  const AirfoilShape shape = naca_airfoil("0012");
  const auto width_at = [](const CurvilinearGrid& g, double x) {
    const long ni = g.cells_i();
    long j = 0;
    while (j < g.cells_j() && g.x(0, j) < x) ++j;
    return 0.5 * (std::hypot(g.x(1, j) - g.x(0, j), g.y(1, j) - g.y(0, j)) +
                  std::hypot(g.x(ni - 1, j) - g.x(0, j), g.y(ni - 1, j) - g.y(0, j)));
  };
  AirfoilGridOptions o;
  o.cells_around = 128;
  o.cells_normal = 64;
  o.first_cell_height = 1e-5;
  const CurvilinearGrid plain = build_airfoil_grid(shape, o);
  o.wake_growth = 1.2;
  const CurvilinearGrid wake = build_airfoil_grid(shape, o);
  for (const CurvilinearGrid* g : {&plain, &wake}) {
    const GridQuality q = grid_quality(*g);
    EXPECT_EQ(q.nonpositive_cells, 0);
    EXPECT_LT(q.max_wall_orthogonality_deg.value, 3.0);
  }
  const double te = std::hypot(wake.x(1, 0) - wake.x(0, 0), wake.y(1, 0) - wake.y(0, 0));
  for (double x : {1.05, 1.5}) {
    EXPECT_GT(width_at(plain, x), 20 * te) << x;
    EXPECT_LT(width_at(wake, x), 0.2 * width_at(plain, x)) << x;
  }
}

// NACA 0012 coordinates in Selig order whose trailing edge is open by 1e-5 chords.
AirfoilShape tiny_gap_airfoil() {
  const AirfoilShape s = naca_airfoil("0012", true, 120);
  std::ostringstream text;
  text.precision(15);
  text << "NACA 0012, TE open by 1e-5\n" << s.x[0] << " " << 5e-6 << "\n";
  for (std::size_t k = s.size() - 1; k >= 1; --k) text << s.x[k] << " " << s.y[k] << "\n";
  text << s.x[0] << " " << -5e-6 << "\n";
  const AirfoilShape out = parse_airfoil_coordinates(text.str(), "tiny_gap.dat");
  EXPECT_EQ(out.corners.size(), 3u);
  return out;
}

TEST(AirfoilGrid, ValidAcrossShapesResolutionsAndWallSpacings) {
  // Includes a strongly cambered thin Joukowski airfoil (concave lower surface: the marching
  // lines focus there without the dissipation) and a blunt trailing edge.
  const std::vector<std::pair<std::string, AirfoilShape>> shapes = {
      {"0012", naca_airfoil("0012")},
      {"2412", naca_airfoil("2412")},
      {"23012", naca_airfoil("23012")},
      {"4412 open TE", naca_airfoil("4412", false)},
      {"joukowski", read_airfoil_file(grid_joukowski_dat())},
      {"joukowski (-0.05, 0.15)", JoukowskiAirfoil(-0.05, 0.15).shape(400)},
      {"tiny TE gap", tiny_gap_airfoil()}};
  for (const auto& [name, shape] : shapes)
    for (long ni : {64L, 256L})
      for (double h : {1e-2, 1e-4})
        for (auto spacing : {SurfaceSpacing::kCosine, SurfaceSpacing::kCurvature}) {
          AirfoilGridOptions o;
          o.cells_around = ni;
          o.first_cell_height = h;
          o.spacing = spacing;
          const std::string what = name + " ni=" + std::to_string(ni) + " h=" + std::to_string(h);
          CurvilinearGrid g;
          ASSERT_NO_THROW(g = build_airfoil_grid(shape, o)) << what;
          const GridQuality q = grid_quality(g);
          EXPECT_EQ(q.nonpositive_cells, 0) << what;
          EXPECT_GT(q.min_normalized_jacobian.value, 0.0) << what;
          EXPECT_LT(q.max_wall_orthogonality_deg.value, 1e-3) << what;
          EXPECT_NEAR(q.min_first_cell_height.value / h, 1.0, 0.05) << what;
          EXPECT_NEAR(q.max_first_cell_height.value / h, 1.0, 0.05) << what;
        }
}

TEST(AirfoilGrid, PureNormalMarchingIsExactlyOrthogonalNearTheWall) {
  AirfoilGridOptions o;
  o.smoothing = 0;
  const CurvilinearGrid g = build_airfoil_grid(naca_airfoil("0012"), o);
  EXPECT_LT(grid_quality(g).max_wall_orthogonality_deg.value, 0.01);
}

TEST(AirfoilGrid, GrowthRatioMeetsFirstCellAndTotalDistance) {
  for (const auto& [h, total, n] :
       {std::tuple<double, double, long>{1e-3, 29.75, 128}, {1e-4, 29.75, 128}, {0.1, 1.0, 10}}) {
    const double r = geometric_growth_ratio(h, total, n);
    const double sum = std::abs(r - 1) < 1e-12 ? h * n : h * (std::pow(r, n) - 1) / (r - 1);
    EXPECT_NEAR(sum, total, 1e-9 * total) << h;
  }
  EXPECT_DOUBLE_EQ(geometric_growth_ratio(0.1, 1.0, 10), 1.0);
  EXPECT_LT(geometric_growth_ratio(0.2, 1.0, 10), 1.0);  // shrinking layers
  EXPECT_NEAR(geometric_growth_ratio(1e-3, 29.75, 128), 1.0603, 1e-3);
}

TEST(AirfoilGrid, BuildsFromTheCaseFileSection) {
  const CaseNode m =
      mesh_section("mesh:\n  airfoil: {type: selig, file: " + grid_joukowski_dat() +
                   "}\n  cells_around: 128\n  cells_normal: 64\n  first_cell_height: 5e-4\n");
  const AirfoilGridOptions o = airfoil_grid_options(m);
  EXPECT_EQ(o.cells_around, 128);
  EXPECT_DOUBLE_EQ(o.farfield_radius, 30.0);  // default
  EXPECT_EQ(o.spacing, SurfaceSpacing::kCosine);
  AirfoilGridInfo info;
  const CurvilinearGrid g = build_airfoil_grid(m, &info);
  EXPECT_EQ(g.cells_i(), 128);
  EXPECT_EQ(g.cells_j(), 64);
  EXPECT_NEAR(info.chord, 1.0, 1e-5);
  EXPECT_NO_THROW(compute_metrics(g));
  // Defaults: a NACA 0012 grid of 256 × 128.
  const CurvilinearGrid d = build_airfoil_grid(mesh_section("mesh: {}\n"));
  EXPECT_EQ(d.cells_i(), 256);
  EXPECT_NEAR(d.x(0, 0), 1.0, 1e-12);
}

TEST(AirfoilGrid, BadOptionsAreInputErrorsThatNameTheCaseFile) {
  // Out of the schema's range.
  EXPECT_THROW(mesh_section("mesh: {cells_around: 8}\n"), InputError);
  EXPECT_THROW(mesh_section("mesh: {first_cell_height: 0}\n"), InputError);
  // Valid keys, impossible together: 8 layers cannot grow from 1e-5 to 30 chords at ≤ 1.35.
  try {
    build_airfoil_grid(mesh_section("mesh: {cells_normal: 8, first_cell_height: 1e-5}\n"));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("mesh.yaml:1"), std::string::npos) << what;
    EXPECT_NE(what.find("growth ratio"), std::string::npos) << what;
  }
  try {
    build_airfoil_grid(mesh_section("mesh: {airfoil: {type: naca, digits: \"0000\"}}\n"));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("mesh.yaml"), std::string::npos) << e.what();
  }
}

TEST(AirfoilGrid, SchemaDocumentsUnitsAndRanges) {
  const Schema s = airfoil_mesh_schema();
  const KeySpec* h = s.find("first_cell_height");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->unit, "chord");
  EXPECT_FALSE(h->doc.empty());
  ASSERT_NE(s.find("farfield_radius"), nullptr);
  EXPECT_EQ(s.find("farfield_radius")->unit, "chord");
  ASSERT_NE(s.find("airfoil"), nullptr);
  EXPECT_EQ(s.find("airfoil")->type, KeyType::kComponent);
  for (const auto& key : s.keys()) EXPECT_FALSE(key.doc.empty()) << key.name;
}

}  // namespace
}  // namespace surrox::mesh
