// NACA 4-digit and 5-digit airfoils: parsing the designation, the camber line and the surface.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "mesh/airfoil_geometry.hpp"
#include "mesh/airfoil_geometry_detail.hpp"

namespace surrox::mesh {
namespace {

using detail::kPi;

struct NacaCamber {
  int kind = 4;
  double m = 0, p = 0;                       // 4-digit
  double r = 0, k1 = 0, k21 = 0, scale = 1;  // 5-digit: r, k1, k2/k1, design-Cl scale
  bool reflex = false;
  double thickness = 0;

  double y(double x) const {
    if (kind == 4) {
      if (m == 0 || p == 0) return 0.0;
      return x < p ? m / (p * p) * (2 * p * x - x * x)
                   : m / ((1 - p) * (1 - p)) * ((1 - 2 * p) + 2 * p * x - x * x);
    }
    if (!reflex) {
      return scale * (x < r ? k1 / 6 * (x * x * x - 3 * r * x * x + r * r * (3 - r) * x)
                            : k1 * r * r * r / 6 * (1 - x));
    }
    const double r3 = r * r * r, tail = k21 * (1 - r) * (1 - r) * (1 - r);
    return scale * (x < r ? k1 / 6 * ((x - r) * (x - r) * (x - r) - tail * x - r3 * x + r3)
                          : k1 / 6 * (k21 * (x - r) * (x - r) * (x - r) - tail * x - r3 * x + r3));
  }
  double slope(double x) const {
    const double h = 1e-7;
    const double a = std::max(0.0, x - h), b = std::min(1.0, x + h);
    return (y(b) - y(a)) / (b - a);
  }
};

NacaCamber parse_naca(const std::string& digits) {
  const bool numeric = !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
  if (!numeric || (digits.size() != 4 && digits.size() != 5))
    throw InputError("NACA designation '" + digits +
                     "' must have 4 digits (e.g. 2412) or 5 digits (e.g. 23012)");
  auto d = [&](std::size_t k) { return digits[k] - '0'; };
  NacaCamber c;
  c.thickness = std::stoi(digits.substr(digits.size() - 2)) / 100.0;
  if (c.thickness <= 0) throw InputError("NACA " + digits + ": thickness must be positive");
  if (digits.size() == 4) {
    c.kind = 4;
    c.m = d(0) / 100.0;
    c.p = d(1) / 10.0;
    if ((c.m == 0) != (c.p == 0))
      throw InputError("NACA " + digits +
                       ": camber and its position must both be zero or both non-zero");
    return c;
  }
  c.kind = 5;
  const int L = d(0), P = d(1), S = d(2);
  if (L == 0 || P < 1 || P > 5 || S > 1 || (S == 1 && P == 1))
    throw InputError("NACA " + digits +
                     ": 5-digit series needs design lift digit 1-9, camber position 1-5 "
                     "(2-5 when reflexed) and a third digit 0 (standard) or 1 (reflexed)");
  c.reflex = S == 1;
  c.scale = 0.15 * L / 0.3;  // the tables are for design Cl 0.3
  static const double r0[] = {0.0580, 0.1260, 0.2025, 0.2900, 0.3910};
  static const double k0[] = {361.400, 51.640, 15.957, 6.643, 3.230};
  static const double r1[] = {0, 0.1300, 0.2170, 0.3180, 0.4410};
  static const double k1[] = {0, 51.990, 15.793, 6.520, 3.191};
  static const double k21[] = {0, 0.000764, 0.00677, 0.0303, 0.1355};
  if (c.reflex) {
    c.r = r1[P - 1];
    c.k1 = k1[P - 1];
    c.k21 = k21[P - 1];
  } else {
    c.r = r0[P - 1];
    c.k1 = k0[P - 1];
  }
  return c;
}

}  // namespace

// ---- NACA ----------------------------------------------------------------------------------
double naca_camber(const std::string& digits, double x) { return parse_naca(digits).y(x); }

AirfoilShape naca_airfoil(const std::string& digits, bool closed_te, int points_per_side) {
  const NacaCamber c = parse_naca(digits);
  if (points_per_side < 8) throw InputError("NACA airfoil needs at least 8 points per side");
  const double a4 = closed_te ? -0.1036 : -0.1015;
  const int m = points_per_side;
  std::vector<double> ux, uy, lx, ly;  // upper and lower surfaces, LE → TE
  for (int k = 0; k <= m; ++k) {
    const double xc = 0.5 * (1 - std::cos(kPi * k / m));
    const double yt = 5 * c.thickness *
                      (0.2969 * std::sqrt(xc) - 0.1260 * xc - 0.3516 * xc * xc +
                       0.2843 * xc * xc * xc + a4 * xc * xc * xc * xc);
    const double th = std::atan(c.slope(xc)), yc = c.y(xc);
    ux.push_back(xc - yt * std::sin(th));
    uy.push_back(yc + yt * std::cos(th));
    lx.push_back(xc + yt * std::sin(th));
    ly.push_back(yc - yt * std::cos(th));
  }
  if (closed_te) {  // the closed polynomial leaves ~1e-17 of thickness at x = 1: make it exact
    lx.back() = ux.back() = 1.0;
    ly.back() = uy.back() = c.y(1.0);
  }
  std::vector<double> x(ux.rbegin(), ux.rend()), y(uy.rbegin(), uy.rend());
  x.insert(x.end(), lx.begin() + 1, lx.end());
  y.insert(y.end(), ly.begin() + 1, ly.end());
  return airfoil_from_selig_order(std::move(x), std::move(y), {}, "NACA " + digits,
                                  "naca " + digits + (closed_te ? " (closed TE)" : " (open TE)"));
}

}  // namespace surrox::mesh
