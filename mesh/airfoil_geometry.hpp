#pragma once
// Airfoil surfaces for the O-grid generator: NACA 4/5-digit shapes, UIUC coordinate files
// (Selig and Lednicer formats), Joukowski airfoils from the conformal map (with their exact
// potential-flow solution, for validating the airfoil solver), resampling with cosine or
// curvature-based spacing, and the checks that turn bad coordinates into InputErrors.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/case_node.hpp"
#include "core/registry.hpp"
#include "core/schema.hpp"

namespace surrox::mesh {

// A closed airfoil surface: distinct points in O-grid order. Point 0 is the trailing edge (TE);
// the points run along the lower surface to the leading edge (LE) and back along the upper surface
// (clockwise); the closing segment from the last point to point 0 is implied, never stored.
// Lengths are in the units of the source (chord 1 for the generators; a coordinate file is not
// rescaled).
//
// Blunt trailing edges (the standard NACA thickness, most UIUC files) are closed by a straight TE
// segment: point 0 is the midpoint of the TE base and points 1 and size()−1 are its corners.
// `corners` lists the points a resampling keeps as nodes (always 0; the two base corners too).
struct AirfoilShape {
  std::string name;                  // "NACA 2412", a file's title line
  std::string source;                // file name, or a description of the generator
  std::vector<double> x, y;          // the points, as above
  std::vector<int> lines;            // 1-based source line of each point; 0 for generated points
  std::vector<std::size_t> corners;  // sorted point indices, corners[0] == 0

  std::size_t size() const { return x.size(); }
  std::size_t leading_edge() const;  // the point farthest from the trailing edge
  double chord() const;              // distance from the trailing edge to the leading edge
  double area() const;               // enclosed area (> 0 for a valid shape)
  // Upper / lower surface height at abscissa `at` (linear between points; x between LE and TE).
  double upper_y(double at) const;
  double lower_y(double at) const;
};

// Thickness and camber in chords, with their x/c positions, measured vertically between the
// surfaces at cosine-spaced stations from the LE to the TE; the camber is taken from the chord
// line through LE and TE. For any shape, generated or read, so a surrogate's shape inputs mean
// the same for NACA and .dat airfoils (NACA 2412: camber 0.02 at 0.4, thickness ≈ 0.12).
struct ShapeDescriptors {
  double thickness = 0, thickness_position = 0;
  double camber = 0, camber_position = 0;  // the camber of largest magnitude, signed
};
ShapeDescriptors describe_shape(const AirfoilShape& shape);
// The descriptors by the names solvers report them under and surrogates take them as inputs:
// airfoil_thickness, airfoil_thickness_position, airfoil_camber, airfoil_camber_position.
std::map<std::string, double> named_descriptors(const ShapeDescriptors& d);

// Checks a shape: at least 10 points, no duplicate points, no self-intersection, clockwise.
// Throws InputError with the source (file name) and the line of the offending point.
void validate_airfoil(const AirfoilShape& shape);

// Builds a shape from coordinates in Selig order (TE → upper → LE → lower → TE; the reverse
// order is accepted and flipped). First and last point may coincide (sharp TE) or be apart by up
// to `max_gap` chords (blunt TE, closed by a base segment); farther apart is "open coordinates".
AirfoilShape airfoil_from_selig_order(std::vector<double> x, std::vector<double> y,
                                      std::vector<int> lines, std::string name, std::string source,
                                      double max_gap = 0.02);

// NACA 4-digit ("0012", "2412") or 5-digit ("23012", reflexed "23112") airfoil, chord 1, LE at
// the origin. `closed_te` uses the −0.1036 x⁴ thickness coefficient (sharp TE); otherwise the
// standard −0.1015 (TE thickness 0.021 t, closed by a base segment). `points_per_side` stations
// with cosine spacing in x; resample afterwards for the grid.
AirfoilShape naca_airfoil(const std::string& digits, bool closed_te = true,
                          int points_per_side = 400);
// Camber line y_c(x) of a NACA 4/5-digit designation (chord 1).
double naca_camber(const std::string& digits, double x);

// UIUC coordinate text: a title line, then "x y" pairs in Selig order, or Lednicer's
// "NU NL" count line followed by the upper and the lower surface each from LE to TE.
// `source` names the file in errors.
AirfoilShape parse_airfoil_coordinates(const std::string& text, const std::string& source);
AirfoilShape read_airfoil_file(const std::string& path);
// Writes a shape as a Selig .dat (title line, then TE → upper → LE → lower → TE; a sharp TE
// point is written first and last). Blunt TE shapes are written without the base midpoint.
void write_selig(const AirfoilShape& shape, const std::string& path, int digits = 10);

// Joukowski airfoil: the circle of centre μ = (center_x, center_y) through ζ = 1 in the ζ-plane,
// mapped by z = ζ + 1/ζ. center_x < 0 sets the thickness (≈ −1.3 center_x t/c), center_y the
// camber. Coordinates are in chords: z_n = (z − z_LE) / c with c = |z_TE − z_LE|, not rotated, so
// the angle of attack α is measured from the x axis. The circle angle θ parameterises the
// surface; θ = −β is the trailing edge, β = asin(center_y / R).
class JoukowskiAirfoil {
 public:
  JoukowskiAirfoil(double center_x, double center_y);

  double radius() const { return radius_; }  // R in ζ-plane units
  double beta() const { return beta_; }      // radians
  double chord() const { return chord_; }    // c in z-plane units (before normalisation)
  // Surface point (in chords) for circle angle θ.
  void surface_point(double theta, double& x, double& y) const;
  // Exact incompressible potential flow with the Kutta condition, free stream at α (radians):
  // Cl = 8π (R / c) sin(α + β), and the surface pressure coefficient at circle angle θ.
  double lift_coefficient(double alpha) const;
  double pressure_coefficient(double theta, double alpha) const;
  // Circle angle θ of a point (in chords) on or near the surface, through the inverse map
  // ζ = (z ± √(z² − 4)) / 2 (the root nearer the circle): compares a solver's wall values
  // with the exact Cp at the same place.
  double theta_of(double x, double y) const;
  // `points` surface points at uniform θ, TE first, clockwise (O-grid order, sharp TE).
  AirfoilShape shape(int points = 257) const;

 private:
  double cx_, cy_, radius_, beta_, chord_;
  double le_x_, le_y_;  // z of the leading edge (the point farthest from the TE), z-plane units
};

// Redistributes the surface to `points` points (O-grid nodes i = 0 … points−1) along cubic
// splines through the shape, keeping its corners. kCosine clusters at LE and TE (half-cosine on
// each surface, split at the LE); kCurvature spaces points by the weight 1 + √(c|κ|) plus a
// TE clustering term, so curved parts get more points. kTanh: Vinokur's two-sided tanh
// stretching on each surface, from the given TE spacing to the given LE spacing (arc length, in
// chords; Vinokur's spacings are approximate, within a few per cent), so the two can be set apart
// (cosine ties them: both shrink as 1/points²).
enum class SurfaceSpacing { kCosine, kCurvature, kTanh };
struct SurfaceSpacingSpec {
  SurfaceSpacing kind = SurfaceSpacing::kCosine;
  double leading_edge = 0, trailing_edge = 0;  // kTanh only, in chords
};
AirfoilShape resample_airfoil(const AirfoilShape& shape, long points, SurfaceSpacing spacing);
AirfoilShape resample_airfoil(const AirfoilShape& shape, long points,
                              const SurfaceSpacingSpec& spacing);
// m + 1 parameters from a to b with first spacing ≈ ds_a and last ≈ ds_b (Vinokur 1983,
// two-sided). InputError when the two spacings do not fit m intervals of b − a.
std::vector<double> vinokur_spacing(double a, double b, long m, double ds_a, double ds_b);

// A named source of airfoil shapes, created from a case-file section {type: NAME, ...}.
class AirfoilSource {
 public:
  virtual ~AirfoilSource() = default;
  virtual AirfoilShape shape() const = 0;
};
using AirfoilSourceRegistry = Registry<AirfoilSource, const CaseNode&>;
// naca, selig (Selig or Lednicer file), joukowski.
const AirfoilSourceRegistry& airfoil_sources();
// The shape described by a validated {type: ..., ...} section.
AirfoilShape make_airfoil(const CaseNode& section);

}  // namespace surrox::mesh
