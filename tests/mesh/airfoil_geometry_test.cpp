// ctest-labels: unit
// ctest-libraries: surrox_mesh
#include "mesh/airfoil_geometry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/schema_validator.hpp"
#include "support/test_paths.hpp"

namespace surrox::mesh {
namespace {

// The committed Joukowski coordinate file and the generator it came from.
constexpr double kJoukowskiCenterX = -0.1, kJoukowskiCenterY = 0.05;
constexpr int kJoukowskiPoints = 400;

std::filesystem::path joukowski_dat() {
  return surrox::testing::source_dir() / "cases/airfoil/joukowski.dat";
}

// Thickness t(x) and mean line (upper + lower) / 2 sampled over x ∈ [a, b].
struct Extreme {
  double value = -1e300, at = 0;
};
template <class F>
Extreme maximum(F f, double a, double b, double step = 5e-4) {
  Extreme e;
  for (double x = a; x <= b; x += step)
    if (const double v = f(x); v > e.value) e.value = v, e.at = x;
  return e;
}

// Distance from (px, py) to the closed polyline of a shape.
double distance_to(const AirfoilShape& s, double px, double py) {
  double best = 1e300;
  for (std::size_t k = 0; k < s.size(); ++k) {
    const std::size_t l = (k + 1) % s.size();
    const double dx = s.x[l] - s.x[k], dy = s.y[l] - s.y[k];
    double t = ((px - s.x[k]) * dx + (py - s.y[k]) * dy) / (dx * dx + dy * dy);
    t = std::clamp(t, 0.0, 1.0);
    best = std::min(best, std::hypot(s.x[k] + t * dx - px, s.y[k] + t * dy - py));
  }
  return best;
}

std::string write_file(const std::string& name, const std::string& text) {
  const auto path = surrox::testing::scratch_dir() / name;
  std::ofstream(path) << text;
  return path.string();
}

// A validated case tree with an `airfoil:` component section.
CaseNode airfoil_section(const std::string& yaml) {
  static Schema schema = [] {
    Schema s;
    s.component("airfoil", airfoil_sources(), "the airfoil").default_type("naca");
    return s;
  }();
  auto origin = std::make_shared<CaseOrigin>();
  origin->file = "case.yaml";
  CaseNode root(YAML::Load(yaml), origin);
  validate_case(schema, root);
  return root.section("airfoil");
}

TEST(AirfoilGeometry, Naca0012HasItsThicknessAtThirtyPercentChord) {
  for (bool closed : {true, false}) {
    const AirfoilShape s = naca_airfoil("0012", closed);
    const Extreme t = maximum([&](double x) { return s.upper_y(x) - s.lower_y(x); }, 0.05, 0.95);
    EXPECT_NEAR(t.value, 0.12, 2e-4) << (closed ? "closed" : "open");
    EXPECT_NEAR(t.at, 0.30, 0.01);
    EXPECT_NEAR(s.chord(), 1.0, 1e-12);
    EXPECT_EQ(s.x[s.leading_edge()], 0.0);
    // Area of NACA 00t: 10 t ∫ y_t dx = 0.68508 t (open TE), 0.68088 t (closed TE).
    EXPECT_NEAR(s.area(), (closed ? 0.68088 : 0.68508) * 0.12, 2e-5);
    // Point 0 is the TE; the lower surface comes first.
    EXPECT_NEAR(s.x[0], 1.0, 1e-12);
    EXPECT_LT(s.y[5], 0.0);
  }
  const AirfoilShape open = naca_airfoil("0012", false);
  ASSERT_EQ(open.corners.size(), 3u);  // base midpoint + two corners
  EXPECT_NEAR(open.y[open.size() - 1] - open.y[1], 2 * 5 * 0.12 * 0.0021, 1e-6);  // TE thickness
  EXPECT_EQ(naca_airfoil("0012", true).corners.size(), 1u);
}

TEST(AirfoilGeometry, Naca2412And4412CamberLines) {
  for (const auto& [digits, camber] :
       {std::pair<std::string, double>{"2412", 0.02}, {"4412", 0.04}}) {
    const AirfoilShape s = naca_airfoil(digits, true);
    const Extreme mean =
        maximum([&](double x) { return 0.5 * (s.upper_y(x) + s.lower_y(x)); }, 0.05, 0.95);
    EXPECT_NEAR(mean.value, camber, 2e-4) << digits;
    EXPECT_NEAR(mean.at, 0.40, 0.02) << digits;
    EXPECT_DOUBLE_EQ(naca_camber(digits, 0.4), camber);
    const Extreme t = maximum([&](double x) { return s.upper_y(x) - s.lower_y(x); }, 0.05, 0.95);
    EXPECT_NEAR(t.value, 0.12, 1.5e-3) << digits;  // measured vertically on a cambered section
  }
}

TEST(AirfoilGeometry, Naca23012CamberPeaksAtFifteenPercent) {
  // Mean-line maximum x = r (1 − √(r/3)) with r = 0.2025, height 1.84 % of chord.
  const Extreme yc = maximum([](double x) { return naca_camber("23012", x); }, 0.0, 1.0, 1e-4);
  EXPECT_NEAR(yc.at, 0.2025 * (1 - std::sqrt(0.2025 / 3)), 2e-4);
  EXPECT_NEAR(yc.value, 0.01838, 1e-4);
  EXPECT_NEAR(naca_camber("23012", 1.0), 0.0, 1e-15);
  EXPECT_NEAR(naca_camber("23012", 0.0), 0.0, 1e-15);
  const AirfoilShape s = naca_airfoil("23012");
  const Extreme mean =
      maximum([&](double x) { return 0.5 * (s.upper_y(x) + s.lower_y(x)); }, 0.02, 0.95);
  EXPECT_NEAR(mean.at, 0.15, 0.01);
  EXPECT_NEAR(mean.value, 0.0184, 3e-4);
  // The 230 camber line is continuous with a continuous slope at x = r.
  EXPECT_NEAR(naca_camber("23012", 0.2025 - 1e-9), naca_camber("23012", 0.2025 + 1e-9), 1e-9);
  // Reflexed 23112: the tail turns up, its slope at the TE is far flatter than the straight 230
  // tail's −k1 r³ / 6 = −0.0221; both end at zero.
  auto te_slope = [](const char* d) {
    return (naca_camber(d, 1.0) - naca_camber(d, 1.0 - 1e-6)) / 1e-6;
  };
  EXPECT_NEAR(te_slope("23012"), -15.957 * std::pow(0.2025, 3) / 6, 1e-6);
  EXPECT_NEAR(te_slope("23112"), -0.0027, 2e-4);
  EXPECT_NEAR(naca_camber("23112", 1.0), 0.0, 1e-15);
}

TEST(AirfoilGeometry, RejectsBadNacaDesignations) {
  for (const char* bad : {"12", "00a2", "0000", "0412", "26012", "21112"})
    EXPECT_THROW(naca_airfoil(bad), InputError) << bad;
}

TEST(AirfoilGeometry, SeligRoundTripOfTheJoukowskiAirfoil) {
  const AirfoilShape s =
      JoukowskiAirfoil(kJoukowskiCenterX, kJoukowskiCenterY).shape(kJoukowskiPoints);
  const std::string path = (surrox::testing::scratch_dir() / "joukowski.dat").string();
  write_selig(s, path);
  const AirfoilShape r = read_airfoil_file(path);
  ASSERT_EQ(r.size(), s.size());
  for (std::size_t k = 0; k < s.size(); ++k) {
    EXPECT_NEAR(r.x[k], s.x[k], 1e-9) << k;
    EXPECT_NEAR(r.y[k], s.y[k], 1e-9) << k;
  }
  EXPECT_EQ(r.name, s.name);
  EXPECT_EQ(r.lines[1],
            2 + static_cast<int>(s.size()) - 1);  // O-grid point 1 is the last-but-one line
}

TEST(AirfoilGeometry, SeligRoundTripOfABluntTrailingEdge) {
  const AirfoilShape s = naca_airfoil("4412", false, 60);
  const std::string path = (surrox::testing::scratch_dir() / "naca4412_open.dat").string();
  write_selig(s, path);
  const AirfoilShape r = read_airfoil_file(path);
  ASSERT_EQ(r.size(), s.size());
  EXPECT_EQ(r.corners, s.corners);
  for (std::size_t k = 0; k < s.size(); ++k) {
    EXPECT_NEAR(r.x[k], s.x[k], 1e-9) << k;
    EXPECT_NEAR(r.y[k], s.y[k], 1e-9) << k;
  }
}

TEST(AirfoilGeometry, CommittedJoukowskiDatComesFromTheConformalMap) {
  // Regenerate with SURROX_REGENERATE=1.
  const JoukowskiAirfoil j(kJoukowskiCenterX, kJoukowskiCenterY);
  if (std::getenv("SURROX_REGENERATE"))
    write_selig(j.shape(kJoukowskiPoints), joukowski_dat().string());
  const AirfoilShape r = read_airfoil_file(joukowski_dat().string());
  ASSERT_EQ(r.size(), static_cast<std::size_t>(kJoukowskiPoints));
  for (std::size_t k = 0; k < r.size(); k += 13) {
    double x, y;
    j.surface_point(-j.beta() - 2 * M_PI * static_cast<double>(k) / kJoukowskiPoints, x, y);
    EXPECT_NEAR(r.x[k], x, 1e-9);
    EXPECT_NEAR(r.y[k], y, 1e-9);
  }
  EXPECT_NEAR(r.chord(), 1.0, 1e-5);  // the exact LE lies between two points
}

TEST(AirfoilGeometry, LednicerAndSeligReadTheSameAirfoil) {
  const AirfoilShape s = naca_airfoil("2412", true, 40);
  const std::size_t n = s.size(), le = s.leading_edge();
  // Lednicer: counts, then upper LE → TE, then lower LE → TE.
  std::ostringstream led;
  led << "NACA 2412 (Lednicer)\n" << (n - le + 1) << ". " << (le + 1) << ".\n\n";
  led.precision(15);
  for (std::size_t k = le; k <= n; ++k) led << s.x[k % n] << " " << s.y[k % n] << "\n";
  led << "\n";
  for (std::size_t k = le + 1; k-- > 0;) led << s.x[k] << " " << s.y[k] << "\n";
  const AirfoilShape r = parse_airfoil_coordinates(led.str(), "naca2412_lednicer.dat");
  ASSERT_EQ(r.size(), n);
  for (std::size_t k = 0; k < n; ++k) {
    EXPECT_NEAR(r.x[k], s.x[k], 1e-14);
    EXPECT_NEAR(r.y[k], s.y[k], 1e-14);
  }
  EXPECT_EQ(r.name, "NACA 2412 (Lednicer)");
}

// Selig text of a small symmetric airfoil (TE → upper → LE → lower → TE), with edits.
std::string selig_text(int points_per_side = 12, double te_gap = 0.0) {
  const AirfoilShape s = naca_airfoil("0012", true, points_per_side);
  std::ostringstream out;
  out.precision(12);
  out << "test airfoil\n";
  const std::size_t n = s.size();
  out << s.x[0] << " " << s.y[0] + 0.5 * te_gap << "\n";
  for (std::size_t k = n - 1; k >= 1; --k) out << s.x[k] << " " << s.y[k] << "\n";
  out << s.x[0] << " " << s.y[0] - 0.5 * te_gap << "\n";
  return out.str();
}

void expect_input_error(const std::string& text, const std::string& name, const std::string& needle,
                        int line = 0) {
  const std::string path = write_file(name, text);
  try {
    read_airfoil_file(path);
    ADD_FAILURE() << "expected an InputError for " << name;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(name), std::string::npos) << what;
    EXPECT_NE(what.find(needle), std::string::npos) << what;
    if (line > 0) {
      EXPECT_NE(what.find(name + ":" + std::to_string(line) + ":"), std::string::npos) << what;
    }
    EXPECT_EQ(e.exit_code(), ExitCode::kBadInput);
  }
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}
std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

TEST(AirfoilGeometry, BadCoordinateFilesNameTheFileAndLine) {
  auto lines = split_lines(selig_text());
  ASSERT_GT(lines.size(), 20u);
  {  // non-numeric line
    auto bad = lines;
    bad[4] = "0.5 abc";
    expect_input_error(join_lines(bad), "nonnumeric.dat", "expected two numbers", 5);
  }
  {  // three numbers on a line
    auto bad = lines;
    bad[6] += " 0.3";
    expect_input_error(join_lines(bad), "threecolumns.dat", "expected two numbers", 7);
  }
  // too few points
  expect_input_error("tiny\n1 0\n0.5 0.05\n0 0\n0.5 -0.05\n1 0\n", "tiny.dat", "too few points");
  // open coordinates: the last point far from the first
  expect_input_error(selig_text(12, 0.2), "open.dat", "open coordinates");
  {  // duplicate point (not adjacent in the file)
    auto bad = lines;
    bad[8] = bad[5];
    expect_input_error(join_lines(bad), "duplicate.dat", "duplicate point");
  }
  {  // self-intersection: two upper-surface points swapped across the lower surface
    auto bad = lines;
    bad[6] = "0.5 -0.2";
    expect_input_error(join_lines(bad), "crossing.dat", "self-intersecting", 0);
  }
  expect_input_error("", "empty.dat", "empty");
  // A small blunt TE is accepted and closed with a base segment.
  const AirfoilShape blunt = parse_airfoil_coordinates(selig_text(12, 0.004), "blunt.dat");
  EXPECT_EQ(blunt.corners.size(), 3u);
  EXPECT_NEAR(blunt.y[0], 0.0, 1e-12);
  EXPECT_THROW(read_airfoil_file((surrox::testing::scratch_dir() / "missing.dat").string()),
               InputError);
}

TEST(AirfoilGeometry, LongCoordinateListsAreCheckedQuicklyAndCompletely) {
  const auto t0 = std::chrono::steady_clock::now();
  AirfoilShape s = naca_airfoil("0012", true, 20000);  // 40 000 points, validated inside
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 2.0);
  // Swap two upper-surface points 10 apart: the polyline now crosses itself there.
  std::swap(s.y[30000], s.y[30010]);
  std::swap(s.x[30000], s.x[30010]);
  try {
    validate_airfoil(s);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("self-intersecting"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("point 2999"), std::string::npos) << e.what();
  }
  EXPECT_THROW(JoukowskiAirfoil(-0.02, 0.0).shape(4000), InputError);  // cusp points coincide
}

TEST(AirfoilGeometry, ResamplingKeepsTheSurfaceAndClustersPoints) {
  const AirfoilShape dense = naca_airfoil("4412", false, 600);
  for (auto spacing : {SurfaceSpacing::kCosine, SurfaceSpacing::kCurvature}) {
    const AirfoilShape s = resample_airfoil(dense, 256, spacing);
    ASSERT_EQ(s.size(), 256u);
    double off = 0;
    for (std::size_t k = 0; k < s.size(); ++k)
      off = std::max(off, distance_to(dense, s.x[k], s.y[k]));
    EXPECT_LT(off, 2e-6);
    // Corners of the blunt TE are kept exactly.
    ASSERT_EQ(s.corners.size(), 3u);
    EXPECT_EQ(s.x[s.corners[1]], dense.x[1]);
    EXPECT_EQ(s.y[s.corners[2]], dense.y[dense.size() - 1]);
    // Spacing at the LE is several times finer than at mid-chord.
    const std::size_t le = s.leading_edge();
    const double ds_le = std::hypot(s.x[le + 1] - s.x[le], s.y[le + 1] - s.y[le]);
    std::size_t mid = le;
    while (s.x[mid] < 0.5) ++mid;
    const double ds_mid = std::hypot(s.x[mid + 1] - s.x[mid], s.y[mid + 1] - s.y[mid]);
    EXPECT_LT(ds_le * 3, ds_mid);
    EXPECT_NEAR(s.area(), dense.area(), 1e-4);
  }
  EXPECT_THROW(resample_airfoil(dense, 8, SurfaceSpacing::kCosine), InputError);
}

// Vinokur's two-sided stretching: its end spacings near the requested ones, monotone, and the
// tanh surface spacing sets the TE spacing apart from the LE's (cosine ties them).
TEST(AirfoilGeometry, TanhSpacingSetsTheTrailingEdgeSpacing) {
  const std::vector<double> t = vinokur_spacing(0, 1, 128, 1e-4, 2e-3);
  ASSERT_EQ(t.size(), 129u);
  for (std::size_t k = 1; k < t.size(); ++k) ASSERT_GT(t[k], t[k - 1]);
  EXPECT_NEAR(t[1] - t[0], 1e-4, 0.05e-4);
  EXPECT_NEAR(t[128] - t[127], 2e-3, 0.1e-3);
  EXPECT_THROW(vinokur_spacing(0, 1, 128, 0.6, 0.6), InputError);
  const AirfoilShape dense = naca_airfoil("0012", true, 600);
  for (double te : {1e-4, 1e-3}) {
    const AirfoilShape s =
        resample_airfoil(dense, 256, SurfaceSpacingSpec{SurfaceSpacing::kTanh, 5e-4, te});
    ASSERT_EQ(s.size(), 256u);
    const double chord = dense.chord();
    const double ds_te = std::hypot(s.x[1] - s.x[0], s.y[1] - s.y[0]) / chord;
    const std::size_t le = s.leading_edge();
    const double ds_le = std::hypot(s.x[le + 1] - s.x[le], s.y[le + 1] - s.y[le]) / chord;
    EXPECT_NEAR(ds_te, te, 0.1 * te);
    EXPECT_NEAR(ds_le, 5e-4, 0.5e-4);
    EXPECT_NEAR(s.area(), dense.area(), 1e-4);
  }
}

TEST(AirfoilGeometry, SourcesAreChosenByNameFromTheCaseFile) {
  const AirfoilShape a = make_airfoil(airfoil_section("airfoil: {type: naca, digits: \"2412\"}\n"));
  EXPECT_EQ(a.name, "NACA 2412");
  const AirfoilShape j = make_airfoil(airfoil_section("airfoil: {type: joukowski, points: 64}\n"));
  EXPECT_EQ(j.size(), 64u);
  const AirfoilShape f = make_airfoil(
      airfoil_section("airfoil: {type: selig, file: " + joukowski_dat().string() + "}\n"));
  EXPECT_EQ(f.size(), static_cast<std::size_t>(kJoukowskiPoints));
  try {
    make_airfoil(airfoil_section("airfoil: {type: naca, digits: \"2x12\"}\n"));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("case.yaml:1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("airfoil.digits"), std::string::npos) << e.what();
  }
  try {
    airfoil_section("airfoil: {type: nacca}\n");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("joukowski, naca, selig"), std::string::npos) << e.what();
  }
}

TEST(JoukowskiAirfoil, ExactLiftMatchesTheIntegratedExactPressure) {
  const JoukowskiAirfoil j(kJoukowskiCenterX, kJoukowskiCenterY);
  const int n = 20000;
  for (double alpha_deg : {0.0, 4.0, 8.0}) {
    const double alpha = alpha_deg * M_PI / 180;
    // Pressure force on the surface polygon (counter-clockwise, midpoint rule): F = −∮ Cp n ds.
    double fx = 0, fy = 0;
    for (int k = 0; k < n; ++k) {
      const double t0 = -j.beta() + 2 * M_PI * k / n, t1 = -j.beta() + 2 * M_PI * (k + 1) / n;
      double x0, y0, x1, y1;
      j.surface_point(t0, x0, y0);
      j.surface_point(t1, x1, y1);
      const double cp = j.pressure_coefficient(0.5 * (t0 + t1), alpha);
      fx -= cp * (y1 - y0);  // outward normal × length of a counter-clockwise edge: (dy, −dx)
      fy -= cp * -(x1 - x0);
    }
    const double cl = fy * std::cos(alpha) - fx * std::sin(alpha);
    const double cd = fx * std::cos(alpha) + fy * std::sin(alpha);
    EXPECT_NEAR(cl, j.lift_coefficient(alpha), 2e-4 * std::max(1.0, cl)) << alpha_deg;
    EXPECT_NEAR(cd, 0.0, 2e-4) << alpha_deg;  // d'Alembert
    // Front stagnation point on the circle: θ = π + 2α + β, Cp = 1.
    EXPECT_NEAR(j.pressure_coefficient(M_PI + 2 * alpha + j.beta(), alpha), 1.0, 1e-12);
  }
  // Zero lift at α = −β; the lift slope is 2π (R/c)·4/…: Cl(α) grows with sin(α + β).
  EXPECT_NEAR(j.lift_coefficient(-j.beta()), 0.0, 1e-15);
  EXPECT_GT(j.lift_coefficient(0.0), 0.0);
  // The trailing-edge Cp is continuous (the limit used at θ = −β).
  EXPECT_NEAR(j.pressure_coefficient(-j.beta(), 0.1), j.pressure_coefficient(-j.beta() + 1e-5, 0.1),
              1e-3);
  EXPECT_NEAR(j.chord(), 4.0, 0.5);
  EXPECT_THROW(JoukowskiAirfoil(0.1, 0.0), InputError);
}

TEST(JoukowskiAirfoil, InverseMapRecoversTheCircleAngle) {
  const JoukowskiAirfoil j(kJoukowskiCenterX, kJoukowskiCenterY);
  for (double t = -3.1; t < 3.1; t += 0.05) {
    double x, y;
    j.surface_point(t, x, y);
    EXPECT_NEAR(std::remainder(j.theta_of(x, y) - t, 2 * M_PI), 0.0, 1e-9) << t;
  }
  // Points of the committed .dat (10 digits) map back to their θ; so does the far side of
  // the cusp.
  const AirfoilShape r = read_airfoil_file(joukowski_dat().string());
  for (std::size_t k = 1; k < r.size(); k += 7) {
    const double t = -j.beta() - 2 * M_PI * static_cast<double>(k) / kJoukowskiPoints;
    EXPECT_NEAR(std::remainder(j.theta_of(r.x[k], r.y[k]) - t, 2 * M_PI), 0.0, 1e-6) << k;
  }
}

TEST(JoukowskiAirfoil, ThinLimitApproachesFlatPlateTheory) {
  // center → 0: a flat plate of chord 4, Cl → 2π sin α.
  const JoukowskiAirfoil j(-1e-4, 0.0);
  EXPECT_NEAR(j.lift_coefficient(0.1), 2 * M_PI * std::sin(0.1), 2e-3);
  EXPECT_NEAR(j.chord(), 4.0, 1e-3);
}

// The shape descriptors a surrogate takes as inputs recover the NACA designation: 4-digit "MPTT"
// is camber M % at P/10 of the chord, thickness TT % (NACA thickness is measured normal to the
// camber line, the descriptor vertically from the LE–TE chord line, which tilts a little when
// the farthest point from the TE is not the camber line's end: within 10 % on a 4 % camber, and
// the maximum is flat, so its position moves by a few % of the chord).
TEST(ShapeDescriptors, RecoverNacaDigits) {
  const ShapeDescriptors symmetric = describe_shape(naca_airfoil("0012"));
  EXPECT_NEAR(symmetric.thickness, 0.12, 2e-4);
  EXPECT_NEAR(symmetric.thickness_position, 0.30, 0.01);
  EXPECT_NEAR(symmetric.camber, 0.0, 1e-9);
  const ShapeDescriptors cambered = describe_shape(naca_airfoil("4415"));
  EXPECT_NEAR(cambered.camber, 0.04, 0.004);
  EXPECT_LT(describe_shape(naca_airfoil("2415")).camber, cambered.camber - 0.015);
  EXPECT_NEAR(cambered.camber_position, 0.40, 0.04);
  EXPECT_NEAR(cambered.thickness, 0.15, 2e-3);
  // A file gives the same numbers as the generator it came from.
  const auto path = std::filesystem::temp_directory_path() / "surrox_descriptors_4415.dat";
  write_selig(naca_airfoil("4415"), path.string());
  const ShapeDescriptors read = describe_shape(read_airfoil_file(path.string()));
  std::filesystem::remove(path);
  EXPECT_NEAR(read.camber, cambered.camber, 1e-6);
  EXPECT_NEAR(read.thickness, cambered.thickness, 1e-6);
}

}  // namespace
}  // namespace surrox::mesh
