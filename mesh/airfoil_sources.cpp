// The airfoil source registry: the case-file sources naca, selig and joukowski.
#include <memory>
#include <string>

#include "core/case_node.hpp"
#include "core/error.hpp"
#include "core/schema.hpp"
#include "mesh/airfoil_geometry.hpp"

namespace surrox::mesh {
namespace {

class NacaSource final : public AirfoilSource {
 public:
  explicit NacaSource(const CaseNode& node)
      : digits_(node.string("digits")),
        closed_(node.string("trailing_edge") == "closed"),
        node_(node) {}
  AirfoilShape shape() const override {
    try {
      return naca_airfoil(digits_, closed_);
    } catch (const InputError& e) {
      node_.fail("digits", e.detail());
    }
  }
  static Schema schema() {
    Schema s("NACA 4-digit or 5-digit airfoil, chord 1, leading edge at the origin.");
    s.string("digits",
             "designation: 4 digits (0012, 2412, 4412) or 5 digits (23012; reflexed 23112)")
        .fallback("\"0012\"");
    s.choice("trailing_edge", {"closed", "open"},
             "closed: sharp TE (x⁴ coefficient −0.1036); open: standard −0.1015, the blunt TE "
             "closed by a straight base segment")
        .fallback("closed");
    return s;
  }

 private:
  std::string digits_;
  bool closed_;
  CaseNode node_;
};

class SeligSource final : public AirfoilSource {
 public:
  explicit SeligSource(const CaseNode& node) : path_(node.string("file")) {}
  AirfoilShape shape() const override { return read_airfoil_file(path_); }
  static Schema schema() {
    Schema s("Airfoil coordinates from a UIUC .dat file (Selig or Lednicer format).");
    s.input_path("file",
                 "coordinate file: title line, then x y pairs TE → upper → LE → lower → TE "
                 "(Selig) or the Lednicer layout; chord-normalised coordinates");
    return s;
  }

 private:
  std::string path_;
};

class JoukowskiSource final : public AirfoilSource {
 public:
  explicit JoukowskiSource(const CaseNode& node)
      : cx_(node.real("center_x")),
        cy_(node.real("center_y")),
        points_(node.integer("points")),
        node_(node) {}
  AirfoilShape shape() const override {
    try {
      return JoukowskiAirfoil(cx_, cy_).shape(static_cast<int>(points_));
    } catch (const InputError& e) {
      node_.fail("center_x", e.detail());
    }
  }
  static Schema schema() {
    Schema s(
        "Joukowski airfoil: the circle through ζ = 1 with centre (center_x, center_y), mapped by "
        "z = ζ + 1/ζ and scaled to chord 1 (LE at the origin, not rotated).");
    s.real("center_x", "circle centre x in the ζ-plane; sets the thickness (t/c ≈ 1.3·|center_x|)")
        .below(0)
        .at_least(-0.5)
        .fallback("-0.1");
    s.real("center_y", "circle centre y in the ζ-plane; sets the camber (f/c ≈ center_y / 2)")
        .at_least(-0.3)
        .at_most(0.3)
        .fallback("0.05");
    s.integer("points",
              "surface points generated from the map (uniform circle angle; beyond 2000 the points "
              "either side of the cusp come closer than 1e-10 chord)")
        .at_least(16)
        .at_most(2000)
        .fallback("513");
    return s;
  }

 private:
  double cx_, cy_;
  long long points_;
  CaseNode node_;
};

}  // namespace

const AirfoilSourceRegistry& airfoil_sources() {
  static const AirfoilSourceRegistry sources = [] {
    AirfoilSourceRegistry r("airfoil");
    r.add("naca", {[](const CaseNode& n) { return std::make_unique<NacaSource>(n); },
                   NacaSource::schema(), "NACA 4-digit and 5-digit airfoils"});
    r.add("selig",
          {[](const CaseNode& n) { return std::make_unique<SeligSource>(n); },
           SeligSource::schema(), "coordinates from a UIUC .dat file (Selig or Lednicer format)"});
    r.add("joukowski", {[](const CaseNode& n) { return std::make_unique<JoukowskiSource>(n); },
                        JoukowskiSource::schema(),
                        "Joukowski airfoil from the conformal map (exact solution known)"});
    return r;
  }();
  return sources;
}

AirfoilShape make_airfoil(const CaseNode& section) {
  const std::string type = section.type();
  return airfoil_sources().at(type, section.context("type")).make(section)->shape();
}

}  // namespace surrox::mesh
