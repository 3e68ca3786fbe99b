#include "mesh/airfoil_geometry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>

#include "core/error.hpp"

namespace surrox::mesh {
namespace {

constexpr double kPi = 3.14159265358979323846;

std::string point_text(double x, double y) {
  std::ostringstream s;
  s << "(" << x << ", " << y << ")";
  return s.str();
}

// Error at point `k` of a shape: the source and the point's line when known.
[[noreturn]] void fail_at(const AirfoilShape& shape, std::size_t k, const std::string& detail) {
  ErrorContext where;
  where.file = shape.source;
  if (k < shape.lines.size()) where.line = shape.lines[k];
  std::string what = detail;
  if (where.line == 0 && k < shape.size()) what += " (point " + std::to_string(k) + ")";
  throw InputError(what, where);
}

double cross(double ax, double ay, double bx, double by) { return ax * by - ay * bx; }

// Orientation of c relative to the line a → b: +1 left, −1 right, 0 collinear.
int orientation(double ax, double ay, double bx, double by, double cx, double cy) {
  const double v = cross(bx - ax, by - ay, cx - ax, cy - ay);
  return (v > 0) - (v < 0);
}

bool on_segment(double ax, double ay, double bx, double by, double cx, double cy) {
  return std::min(ax, bx) <= cx && cx <= std::max(ax, bx) && std::min(ay, by) <= cy &&
         cy <= std::max(ay, by);
}

bool segments_intersect(double ax, double ay, double bx, double by, double cx, double cy, double dx,
                        double dy) {
  const int o1 = orientation(ax, ay, bx, by, cx, cy), o2 = orientation(ax, ay, bx, by, dx, dy);
  const int o3 = orientation(cx, cy, dx, dy, ax, ay), o4 = orientation(cx, cy, dx, dy, bx, by);
  if (o1 != o2 && o3 != o4) return true;
  if (o1 == 0 && on_segment(ax, ay, bx, by, cx, cy)) return true;
  if (o2 == 0 && on_segment(ax, ay, bx, by, dx, dy)) return true;
  if (o3 == 0 && on_segment(cx, cy, dx, dy, ax, ay)) return true;
  if (o4 == 0 && on_segment(cx, cy, dx, dy, bx, by)) return true;
  return false;
}

double signed_area(const std::vector<double>& x, const std::vector<double>& y) {
  double a = 0;
  const std::size_t n = x.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t l = (k + 1) % n;
    a += cross(x[k] - x[0], y[k] - y[0], x[l] - x[0], y[l] - y[0]);
  }
  return 0.5 * a;
}

// Height of a branch (a run of points) at abscissa `at`, linear between points.
double branch_height(const std::vector<double>& bx, const std::vector<double>& by, double at) {
  for (std::size_t k = 0; k + 1 < bx.size(); ++k) {
    const double x0 = bx[k], x1 = bx[k + 1];
    if ((x0 - at) * (x1 - at) <= 0 && x0 != x1)
      return by[k] + (by[k + 1] - by[k]) * (at - x0) / (x1 - x0);
  }
  throw Error("airfoil surface has no point at x = " + std::to_string(at));
}

// ---- natural cubic spline of (t, v) --------------------------------------------------------
class Spline {
 public:
  Spline() = default;
  Spline(std::vector<double> t, std::vector<double> v) : t_(std::move(t)), v_(std::move(v)) {
    const std::size_t n = t_.size();
    m_.assign(n, 0.0);
    if (n < 3) return;
    // Tridiagonal system for the second derivatives, natural ends (m = 0).
    std::vector<double> a(n, 0), b(n, 1), c(n, 0), r(n, 0);
    for (std::size_t k = 1; k + 1 < n; ++k) {
      const double h0 = t_[k] - t_[k - 1], h1 = t_[k + 1] - t_[k];
      a[k] = h0 / 6;
      b[k] = (h0 + h1) / 3;
      c[k] = h1 / 6;
      r[k] = (v_[k + 1] - v_[k]) / h1 - (v_[k] - v_[k - 1]) / h0;
    }
    for (std::size_t k = 1; k < n; ++k) {
      const double f = a[k] / b[k - 1];
      b[k] -= f * c[k - 1];
      r[k] -= f * r[k - 1];
    }
    m_[n - 1] = r[n - 1] / b[n - 1];
    for (std::size_t k = n - 1; k-- > 0;) m_[k] = (r[k] - c[k] * m_[k + 1]) / b[k];
  }

  // Value, first and second derivative at t.
  void eval(double t, double& v, double& d1, double& d2) const {
    const std::size_t n = t_.size();
    std::size_t k =
        static_cast<std::size_t>(std::upper_bound(t_.begin(), t_.end(), t) - t_.begin());
    k = std::clamp<std::size_t>(k, 1, n - 1) - 1;
    const double h = t_[k + 1] - t_[k];
    const double A = (t_[k + 1] - t) / h, B = (t - t_[k]) / h;
    v = A * v_[k] + B * v_[k + 1] +
        ((A * A * A - A) * m_[k] + (B * B * B - B) * m_[k + 1]) * h * h / 6;
    d1 = (v_[k + 1] - v_[k]) / h + ((1 - 3 * A * A) * m_[k] + (3 * B * B - 1) * m_[k + 1]) * h / 6;
    d2 = A * m_[k] + B * m_[k + 1];
  }
  double operator()(double t) const {
    double v, d1, d2;
    eval(t, v, d1, d2);
    return v;
  }

 private:
  std::vector<double> t_, v_, m_;
};

// A piece of the surface between two corners, splined in cumulative chord length.
struct Piece {
  Spline sx, sy;
  double length = 0;
  void point(double t, double& x, double& y) const {
    x = sx(t);
    y = sy(t);
  }
  double curvature(double t) const {
    double x, x1, x2, y, y1, y2;
    sx.eval(t, x, x1, x2);
    sy.eval(t, y, y1, y2);
    const double s2 = x1 * x1 + y1 * y1;
    return s2 > 0 ? (x1 * y2 - y1 * x2) / (s2 * std::sqrt(s2)) : 0.0;
  }
};

Piece make_piece(const AirfoilShape& s, std::size_t from, std::size_t to) {
  std::vector<double> t{0.0}, px{s.x[from]}, py{s.y[from]};
  const std::size_t n = s.size();
  for (std::size_t k = from + 1; k <= to; ++k) {
    const std::size_t kk = k % n;
    t.push_back(t.back() + std::hypot(s.x[kk] - px.back(), s.y[kk] - py.back()));
    px.push_back(s.x[kk]);
    py.push_back(s.y[kk]);
  }
  Piece p;
  p.length = t.back();
  p.sx = Spline(t, px);
  p.sy = Spline(t, py);
  return p;
}

// Parameters t_0 = a < t_1 < … < t_m = b equidistributing the weight w (sampled densely).
template <class Weight>
std::vector<double> equidistribute(double a, double b, long m, Weight w) {
  const long samples = std::max<long>(2000, 40 * m);
  std::vector<double> t(samples + 1), W(samples + 1, 0.0);
  for (long k = 0; k <= samples; ++k) t[k] = a + (b - a) * static_cast<double>(k) / samples;
  double prev = w(t[0]);
  for (long k = 1; k <= samples; ++k) {
    const double cur = w(t[k]);
    W[k] = W[k - 1] + 0.5 * (prev + cur) * (t[k] - t[k - 1]);
    prev = cur;
  }
  std::vector<double> out(m + 1);
  out[0] = a;
  out[m] = b;
  long k = 0;
  for (long j = 1; j < m; ++j) {
    const double target = W[samples] * static_cast<double>(j) / static_cast<double>(m);
    while (k < samples && W[k + 1] < target) ++k;
    const double f = (target - W[k]) / std::max(W[k + 1] - W[k], 1e-300);
    out[j] = t[k] + f * (t[k + 1] - t[k]);
  }
  return out;
}

std::vector<double> half_cosine(double a, double b, long m) {
  std::vector<double> out(m + 1);
  for (long j = 0; j <= m; ++j)
    out[j] = a + (b - a) * 0.5 * (1 - std::cos(kPi * j / static_cast<double>(m)));
  return out;
}

}  // namespace

std::vector<double> vinokur_spacing(double a, double b, long m, double ds_a, double ds_b) {
  const double length = b - a;
  if (!(m >= 2 && length > 0 && ds_a > 0 && ds_b > 0 && ds_a + ds_b < length))
    throw InputError(fmt::format(
        "tanh surface spacing: spacings {} and {} do not fit {} intervals of a surface {} long",
        ds_a, ds_b, m, length));
  const double s0 = ds_a / length, s1 = ds_b / length, big_a = std::sqrt(s1 / s0);
  const double big_b = 1 / (static_cast<double>(m) * std::sqrt(s0 * s1));
  // δ from sinh(δ)/δ = B (B > 1: clustered) or sin(δ)/δ = B (B < 1, δ < π), by bisection.
  const bool hyperbolic = big_b > 1;
  const auto f = [&](double d) { return (hyperbolic ? std::sinh(d) : std::sin(d)) / d - big_b; };
  double lo = 1e-12, hi = hyperbolic ? 1.0 : kPi - 1e-12;
  if (hyperbolic)
    while (f(hi) < 0) hi *= 2;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    ((f(mid) < 0) == hyperbolic ? lo : hi) = mid;
  }
  const double delta = 0.5 * (lo + hi);
  std::vector<double> out(static_cast<std::size_t>(m + 1));
  for (long j = 0; j <= m; ++j) {
    const double xi = static_cast<double>(j) / static_cast<double>(m);
    const double u =
        std::abs(big_b - 1) < 1e-12
            ? xi
            : 0.5 * (1 + (hyperbolic ? std::tanh(delta * (xi - 0.5)) / std::tanh(0.5 * delta)
                                     : std::tan(delta * (xi - 0.5)) / std::tan(0.5 * delta)));
    out[static_cast<std::size_t>(j)] = a + length * u / (big_a + (1 - big_a) * u);
  }
  out.front() = a;
  out.back() = b;
  return out;
}

namespace {

// Parameter of the point on `p` farthest from (tx, ty), refined by golden-section search.
double farthest_parameter(const Piece& p, double tx, double ty) {
  const int samples = 4000;
  double best_t = 0, best = -1;
  for (int k = 0; k <= samples; ++k) {
    const double t = p.length * k / samples;
    double x, y;
    p.point(t, x, y);
    const double d = std::hypot(x - tx, y - ty);
    if (d > best) best = d, best_t = t;
  }
  double lo = std::max(0.0, best_t - p.length / samples),
         hi = std::min(p.length, best_t + p.length / samples);
  const double g = 0.5 * (std::sqrt(5.0) - 1);
  auto dist = [&](double t) {
    double x, y;
    p.point(t, x, y);
    return std::hypot(x - tx, y - ty);
  };
  for (int it = 0; it < 60; ++it) {
    const double c = hi - g * (hi - lo), d = lo + g * (hi - lo);
    if (dist(c) > dist(d))
      hi = d;
    else
      lo = c;
  }
  return 0.5 * (lo + hi);
}

// ---- NACA ----------------------------------------------------------------------------------
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

// ---- registered sources --------------------------------------------------------------------
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

// ---- AirfoilShape --------------------------------------------------------------------------
std::size_t AirfoilShape::leading_edge() const {
  std::size_t best = 0;
  double far = -1;
  for (std::size_t k = 0; k < size(); ++k) {
    const double d = std::hypot(x[k] - x[0], y[k] - y[0]);
    if (d > far) far = d, best = k;
  }
  return best;
}

double AirfoilShape::chord() const {
  const std::size_t le = leading_edge();
  return std::hypot(x[le] - x[0], y[le] - y[0]);
}

double AirfoilShape::area() const { return -signed_area(x, y); }

double AirfoilShape::lower_y(double at) const {
  const std::size_t le = leading_edge();
  std::vector<double> bx(x.begin(), x.begin() + le + 1), by(y.begin(), y.begin() + le + 1);
  return branch_height(bx, by, at);
}

double AirfoilShape::upper_y(double at) const {
  const std::size_t le = leading_edge();
  std::vector<double> bx(x.begin() + le, x.end()), by(y.begin() + le, y.end());
  bx.push_back(x[0]);
  by.push_back(y[0]);
  return branch_height(bx, by, at);
}

ShapeDescriptors describe_shape(const AirfoilShape& shape) {
  const std::size_t le = shape.leading_edge();
  const double x_le = shape.x[le], y_le = shape.y[le], x_te = shape.x[0], y_te = shape.y[0];
  const double c = shape.chord();
  ShapeDescriptors d;
  constexpr int kStations = 400;
  for (int n = 1; n < kStations; ++n) {
    const double s = 0.5 * (1 - std::cos(M_PI * n / kStations));  // x/c, clustered at both ends
    const double at = x_le + s * (x_te - x_le);
    const double upper = shape.upper_y(at), lower = shape.lower_y(at);
    const double thickness = (upper - lower) / c;
    const double camber = (0.5 * (upper + lower) - (y_le + s * (y_te - y_le))) / c;
    if (thickness > d.thickness) d.thickness = thickness, d.thickness_position = s;
    if (std::abs(camber) > std::abs(d.camber)) d.camber = camber, d.camber_position = s;
  }
  return d;
}

std::map<std::string, double> named_descriptors(const ShapeDescriptors& d) {
  return {{"airfoil_thickness", d.thickness},
          {"airfoil_thickness_position", d.thickness_position},
          {"airfoil_camber", d.camber},
          {"airfoil_camber_position", d.camber_position}};
}

void validate_airfoil(const AirfoilShape& s) {
  const std::size_t n = s.size();
  if (s.y.size() != n)
    throw Error("airfoil shape with " + std::to_string(n) + " x but " + std::to_string(s.y.size()) +
                " y coordinates");
  if (n < 10) {
    ErrorContext where;
    where.file = s.source;
    throw InputError("too few points: " + std::to_string(n) + " (an airfoil needs at least 10)",
                     where);
  }
  for (std::size_t k = 0; k < n; ++k)
    if (!std::isfinite(s.x[k]) || !std::isfinite(s.y[k])) fail_at(s, k, "coordinate is not finite");
  const double c = s.chord();
  if (!(c > 0)) fail_at(s, 0, "all points coincide");
  // Duplicates: points closer than 1e-10 chords (sorted by x, neighbours in x compared).
  const double tol = 1e-10 * c;
  std::vector<std::size_t> order(n);
  for (std::size_t k = 0; k < n; ++k) order[k] = k;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return s.x[a] < s.x[b]; });
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n && s.x[order[b]] - s.x[order[a]] <= tol; ++b) {
      const std::size_t p = std::min(order[a], order[b]), q = std::max(order[a], order[b]);
      if (std::hypot(s.x[p] - s.x[q], s.y[p] - s.y[q]) <= tol) {
        const std::string other = q < s.lines.size() && s.lines[q] > 0
                                      ? "line " + std::to_string(s.lines[q])
                                      : "point " + std::to_string(q);
        fail_at(s, p, "duplicate point " + point_text(s.x[p], s.y[p]) + ", repeated at " + other);
      }
    }
  // Self-intersection: every pair of non-adjacent segments; adjacent ones must not fold back.
  auto where = [&](std::size_t k) {
    return k < s.lines.size() && s.lines[k] > 0 ? "line " + std::to_string(s.lines[k])
                                                : "point " + std::to_string(k);
  };
  // Candidate pairs come from a √n × √n bucket grid over the bounding box (each segment sits in
  // every bucket its box touches), so long files are checked in about O(n) instead of O(n²).
  const auto [xmin, xmax] = std::minmax_element(s.x.begin(), s.x.end());
  const auto [ymin, ymax] = std::minmax_element(s.y.begin(), s.y.end());
  const long buckets = std::max<long>(1, static_cast<long>(std::sqrt(static_cast<double>(n))));
  const double bw = std::max(*xmax - *xmin, 1e-300) / buckets,
               bh = std::max(*ymax - *ymin, 1e-300) / buckets;
  auto bucket_of = [&](double v, double lo, double w) {
    return std::clamp<long>(static_cast<long>((v - lo) / w), 0, buckets - 1);
  };
  std::vector<std::vector<std::size_t>> grid(static_cast<std::size_t>(buckets * buckets));
  for (std::size_t a = 0; a < n; ++a) {
    const std::size_t a1 = (a + 1) % n;
    const long i0 = bucket_of(std::min(s.x[a], s.x[a1]), *xmin, bw),
               i1 = bucket_of(std::max(s.x[a], s.x[a1]), *xmin, bw);
    const long j0 = bucket_of(std::min(s.y[a], s.y[a1]), *ymin, bh),
               j1 = bucket_of(std::max(s.y[a], s.y[a1]), *ymin, bh);
    for (long i = i0; i <= i1; ++i)
      for (long j = j0; j <= j1; ++j) grid[static_cast<std::size_t>(i * buckets + j)].push_back(a);
  }
  std::size_t bad_a = n, bad_b = n;
  for (const auto& cell : grid)
    for (std::size_t p = 0; p < cell.size(); ++p)
      for (std::size_t q = p + 1; q < cell.size(); ++q) {
        const std::size_t a = std::min(cell[p], cell[q]), b = std::max(cell[p], cell[q]);
        const std::size_t a1 = (a + 1) % n, b1 = (b + 1) % n;
        if (a1 == b || b1 == a) continue;  // adjacent (also through the closing segment)
        if ((a < bad_a || (a == bad_a && b < bad_b)) &&
            segments_intersect(s.x[a], s.y[a], s.x[a1], s.y[a1], s.x[b], s.y[b], s.x[b1],
                               s.y[b1])) {
          bad_a = a;
          bad_b = b;
        }
      }
  if (bad_a < n)
    fail_at(s, bad_a,
            "self-intersecting surface: the segment " + where(bad_a) + " → " +
                where((bad_a + 1) % n) + " crosses the segment " + where(bad_b) + " → " +
                where((bad_b + 1) % n));
  for (std::size_t a = 0; a < n; ++a) {
    const std::size_t a1 = (a + 1) % n;
    const std::size_t a2 = (a + 2) % n;
    const double ux = s.x[a1] - s.x[a], uy = s.y[a1] - s.y[a];
    const double vx = s.x[a2] - s.x[a1], vy = s.y[a2] - s.y[a1];
    if (cross(ux, uy, vx, vy) == 0 && ux * vx + uy * vy < 0)
      fail_at(s, a1,
              "self-intersecting surface: the polyline folds back on itself at " + where(a1));
  }
  if (!(s.area() > 0))
    fail_at(s, 0, "airfoil points run counter-clockwise (expected TE → lower → LE → upper)");
}

AirfoilShape airfoil_from_selig_order(std::vector<double> x, std::vector<double> y,
                                      std::vector<int> lines, std::string name, std::string source,
                                      double max_gap) {
  AirfoilShape s;
  s.name = std::move(name);
  s.source = std::move(source);
  if (lines.size() != x.size()) lines.assign(x.size(), 0);
  ErrorContext file;
  file.file = s.source;
  if (x.size() < 10)
    throw InputError(
        "too few points: " + std::to_string(x.size()) + " (an airfoil needs at least 10)", file);
  // Selig runs TE → upper → LE → lower → TE: reversed it is the O-grid order. A file listed the
  // other way round (lower first) is clockwise already.
  std::reverse(x.begin(), x.end());
  std::reverse(y.begin(), y.end());
  std::reverse(lines.begin(), lines.end());
  if (signed_area(x, y) > 0) {
    std::reverse(x.begin(), x.end());
    std::reverse(y.begin(), y.end());
    std::reverse(lines.begin(), lines.end());
  }
  // Chord: the farthest distance between the first point and any other.
  double chord = 0;
  for (std::size_t k = 1; k < x.size(); ++k)
    chord = std::max(chord, std::hypot(x[k] - x[0], y[k] - y[0]));
  if (!(chord > 0)) throw InputError("all points coincide", file);
  const double gap = std::hypot(x.back() - x.front(), y.back() - y.front());
  if (gap <= 1e-10 * chord) {
    // Sharp TE listed first and last: keep it once, as point 0.
    x.pop_back();
    y.pop_back();
    lines.pop_back();
    s.x = std::move(x);
    s.y = std::move(y);
    s.lines = std::move(lines);
    s.corners = {0};
  } else if (gap <= max_gap * chord) {
    // Blunt TE: point 0 is the midpoint of the base, the first and last points its corners.
    s.x.push_back(0.5 * (x.front() + x.back()));
    s.y.push_back(0.5 * (y.front() + y.back()));
    s.lines.push_back(0);
    s.x.insert(s.x.end(), x.begin(), x.end());
    s.y.insert(s.y.end(), y.begin(), y.end());
    s.lines.insert(s.lines.end(), lines.begin(), lines.end());
    s.corners = {0, 1, s.x.size() - 1};
  } else {
    std::ostringstream msg;
    msg << "open coordinates: the first and last points " << point_text(x.back(), y.back())
        << " and " << point_text(x.front(), y.front()) << " are " << gap / chord
        << " chords apart (at most " << max_gap << " is closed by a trailing-edge segment)";
    file.line = lines.back();
    throw InputError(msg.str(), file);
  }
  validate_airfoil(s);
  return s;
}

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

// ---- coordinate files ----------------------------------------------------------------------
AirfoilShape parse_airfoil_coordinates(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  std::string line, title;
  int number = 0;
  std::vector<double> xs, ys;
  std::vector<int> lines;
  ErrorContext where;
  where.file = source;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (number == 1) {
      title = line;
      const auto b = title.find_first_not_of(" \t");
      title = b == std::string::npos ? std::string() : title.substr(b);
      continue;
    }
    std::string cleaned = line;
    std::replace(cleaned.begin(), cleaned.end(), ',', ' ');
    std::replace(cleaned.begin(), cleaned.end(), '\t', ' ');
    std::istringstream fields(cleaned);
    std::vector<std::string> tokens;
    for (std::string tok; fields >> tok;) tokens.push_back(tok);
    if (tokens.empty()) continue;
    double v[2] = {0, 0};
    bool ok = tokens.size() == 2;
    for (std::size_t k = 0; ok && k < 2; ++k) {
      char* end = nullptr;
      v[k] = std::strtod(tokens[k].c_str(), &end);
      ok = end && *end == '\0' && std::isfinite(v[k]);
    }
    if (!ok) {
      where.line = number;
      std::string shown = line.size() > 60 ? line.substr(0, 60) + "…" : line;
      throw InputError("expected two numbers 'x y', got '" + shown + "'", where);
    }
    xs.push_back(v[0]);
    ys.push_back(v[1]);
    lines.push_back(number);
  }
  if (number == 0) throw InputError("empty airfoil coordinate file", where);
  // Lednicer: the first pair counts the upper and lower points (integers ≥ 2, far beyond a
  // chord-normalised coordinate); both surfaces follow from LE to TE.
  if (!xs.empty() && xs[0] >= 2 && ys[0] >= 2 && xs[0] == std::floor(xs[0]) &&
      ys[0] == std::floor(ys[0])) {
    const std::size_t nu = static_cast<std::size_t>(xs[0]), nl = static_cast<std::size_t>(ys[0]);
    if (nu + nl != xs.size() - 1) {
      where.line = lines[0];
      throw InputError("Lednicer header announces " + std::to_string(nu) + " upper and " +
                           std::to_string(nl) + " lower points, the file has " +
                           std::to_string(xs.size() - 1),
                       where);
    }
    std::vector<double> x, y;
    std::vector<int> l;
    for (std::size_t k = nu; k >= 1; --k)
      x.push_back(xs[k]), y.push_back(ys[k]), l.push_back(lines[k]);
    std::size_t first = nu + 1;
    if (std::hypot(xs[first] - xs[1], ys[first] - ys[1]) == 0) ++first;  // shared LE point
    for (std::size_t k = first; k < xs.size(); ++k)
      x.push_back(xs[k]), y.push_back(ys[k]), l.push_back(lines[k]);
    return airfoil_from_selig_order(std::move(x), std::move(y), std::move(l), title, source);
  }
  return airfoil_from_selig_order(std::move(xs), std::move(ys), std::move(lines), title, source);
}

AirfoilShape read_airfoil_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  ErrorContext where;
  where.file = path;
  if (!in) throw InputError("cannot open airfoil coordinate file", where);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string content = text.str();
  if (content.size() > (64u << 20))
    throw InputError("airfoil coordinate file larger than 64 MiB", where);
  if (content.find('\0') != std::string::npos)
    throw InputError("binary data in an airfoil coordinate file", where);
  return parse_airfoil_coordinates(content, path);
}

void write_selig(const AirfoilShape& shape, const std::string& path, int digits) {
  std::ofstream out(path);
  if (!out) throw Error("cannot write " + path);
  out << (shape.name.empty() ? std::string("airfoil") : shape.name) << "\n";
  out << std::setprecision(digits) << std::scientific;
  const std::size_t n = shape.size();
  const bool blunt =
      shape.corners.size() == 3 && shape.corners[1] == 1 && shape.corners[2] == n - 1;
  // Selig order is the O-grid order reversed: from the upper TE corner (or the sharp TE) back.
  auto emit = [&](std::size_t k) {
    out << std::setw(digits + 8) << shape.x[k] << " " << std::setw(digits + 8) << shape.y[k]
        << "\n";
  };
  if (blunt) {
    for (std::size_t k = n - 1; k >= 1; --k) emit(k);
  } else {
    emit(0);
    for (std::size_t k = n - 1; k >= 1; --k) emit(k);
    emit(0);
  }
  if (!out) throw Error("error writing " + path);
}

// ---- Joukowski -----------------------------------------------------------------------------
JoukowskiAirfoil::JoukowskiAirfoil(double center_x, double center_y)
    : cx_(center_x), cy_(center_y) {
  if (!(center_x < 0) || !std::isfinite(center_y) || center_x < -1)
    throw InputError("Joukowski circle centre x must lie in [-1, 0) (got " +
                     std::to_string(center_x) + "): the circle must enclose ζ = −1");
  radius_ = std::hypot(1 - cx_, cy_);
  beta_ = std::atan2(cy_, 1 - cx_);
  // Leading edge: the surface point farthest from the trailing edge z = 2.
  le_x_ = 2;
  le_y_ = 0;
  double best = -1, best_t = 0;
  auto z_of = [&](double t, double& zx, double& zy) {
    const std::complex<double> zeta(cx_ + radius_ * std::cos(t), cy_ + radius_ * std::sin(t));
    const std::complex<double> z = zeta + 1.0 / zeta;
    zx = z.real();
    zy = z.imag();
  };
  const int samples = 20000;
  for (int k = 0; k < samples; ++k) {
    const double t = -beta_ + 2 * kPi * k / samples;
    double zx, zy;
    z_of(t, zx, zy);
    const double d = std::hypot(zx - 2, zy);
    if (d > best) best = d, best_t = t;
  }
  double lo = best_t - 2 * kPi / samples, hi = best_t + 2 * kPi / samples;
  const double g = 0.5 * (std::sqrt(5.0) - 1);
  auto dist = [&](double t) {
    double zx, zy;
    z_of(t, zx, zy);
    return std::hypot(zx - 2, zy);
  };
  for (int it = 0; it < 80; ++it) {
    const double c = hi - g * (hi - lo), d = lo + g * (hi - lo);
    if (dist(c) > dist(d))
      hi = d;
    else
      lo = c;
  }
  z_of(0.5 * (lo + hi), le_x_, le_y_);
  chord_ = std::hypot(2 - le_x_, le_y_);
}

void JoukowskiAirfoil::surface_point(double theta, double& x, double& y) const {
  const std::complex<double> zeta(cx_ + radius_ * std::cos(theta), cy_ + radius_ * std::sin(theta));
  const std::complex<double> z = zeta + 1.0 / zeta;
  x = (z.real() - le_x_) / chord_;
  y = (z.imag() - le_y_) / chord_;
}

double JoukowskiAirfoil::lift_coefficient(double alpha) const {
  return 8 * kPi * radius_ / chord_ * std::sin(alpha + beta_);
}

double JoukowskiAirfoil::theta_of(double x, double y) const {
  const std::complex<double> z(x * chord_ + le_x_, y * chord_ + le_y_), mu(cx_, cy_);
  const std::complex<double> root = std::sqrt(z * z - 4.0);
  const std::complex<double> a = 0.5 * (z + root), b = 0.5 * (z - root);
  const std::complex<double> zeta =
      std::abs(std::abs(a - mu) - radius_) <= std::abs(std::abs(b - mu) - radius_) ? a : b;
  return std::arg(zeta - mu);
}

double JoukowskiAirfoil::pressure_coefficient(double theta, double alpha) const {
  // Circle: |dw/dζ| = 2U |sin(θ − α) + sin(α + β)| (Kutta condition at θ = −β); the map divides
  // it by |dz/dζ| = |1 − 1/ζ²|. At the trailing edge both vanish: the limit is U cos(α + β) / R.
  const double d = std::remainder(theta + beta_, 2 * kPi);
  double speed;
  if (std::abs(d) < 1e-7) {
    speed = std::cos(alpha + beta_) / radius_;
  } else {
    const std::complex<double> zeta(cx_ + radius_ * std::cos(theta),
                                    cy_ + radius_ * std::sin(theta));
    const double q = 2 * (std::sin(theta - alpha) + std::sin(alpha + beta_));
    speed = std::abs(q) / std::abs(1.0 - 1.0 / (zeta * zeta));
  }
  return 1 - speed * speed;
}

AirfoilShape JoukowskiAirfoil::shape(int points) const {
  if (points < 16) throw InputError("Joukowski airfoil needs at least 16 points");
  AirfoilShape s;
  std::ostringstream name;
  name << "Joukowski airfoil, circle centre (" << cx_ << ", " << cy_
       << "), R = " << std::setprecision(12) << radius_ << ", beta = " << beta_ << " rad";
  s.name = name.str();
  s.source = "joukowski (" + std::to_string(cx_) + ", " + std::to_string(cy_) + ")";
  for (int k = 0; k < points; ++k) {
    double x, y;
    surface_point(-beta_ - 2 * kPi * k / points, x,
                  y);  // clockwise from the TE: lower surface first
    s.x.push_back(x);
    s.y.push_back(y);
  }
  s.corners = {0};
  validate_airfoil(s);
  return s;
}

// ---- resampling ----------------------------------------------------------------------------
AirfoilShape resample_airfoil(const AirfoilShape& shape, long points, SurfaceSpacing spacing) {
  return resample_airfoil(shape, points, SurfaceSpacingSpec{spacing, 0, 0});
}

AirfoilShape resample_airfoil(const AirfoilShape& shape, long points,
                              const SurfaceSpacingSpec& spec) {
  const SurfaceSpacing spacing = spec.kind;
  validate_airfoil(shape);
  const std::size_t n = shape.size();
  if (points < 16)
    throw InputError("an airfoil surface needs at least 16 points, got " + std::to_string(points));
  std::vector<std::size_t> corners = shape.corners;
  if (corners.empty() || corners[0] != 0) corners.insert(corners.begin(), 0);
  const double chord = shape.chord();
  // Pieces between consecutive corners; the longest is the main surface, the others (TE base
  // halves) get a uniform spacing close to the main surface's spacing at the TE.
  std::vector<Piece> pieces;
  for (std::size_t k = 0; k < corners.size(); ++k)
    pieces.push_back(make_piece(shape, corners[k], k + 1 < corners.size() ? corners[k + 1] : n));
  std::size_t main = 0;
  for (std::size_t k = 1; k < pieces.size(); ++k)
    if (pieces[k].length > pieces[main].length) main = k;
  std::vector<long> cells(pieces.size(), 1);
  long others = 0;
  const double half = 0.5 * pieces[main].length;
  for (int pass = 0; pass < 2; ++pass) {
    const long m_half = std::max<long>(2, (points - others) / 2);
    const double ds_te = half * 0.5 * (1 - std::cos(kPi / m_half));
    others = 0;
    for (std::size_t k = 0; k < pieces.size(); ++k) {
      if (k == main) continue;
      cells[k] = std::clamp<long>(std::lround(pieces[k].length / ds_te), 1,
                                  std::max<long>(1, points / 16));
      others += cells[k];
    }
  }
  cells[main] = points - others;
  if (cells[main] < 8) throw InputError("too few surface points for the trailing-edge base");
  const Piece& mp = pieces[main];

  std::vector<double> main_t;
  if (spacing == SurfaceSpacing::kCosine) {
    // Split at the leading edge: the point farthest from point 0 (the TE).
    const double t_le = farthest_parameter(mp, shape.x[0], shape.y[0]);
    const long m_lower = cells[main] / 2, m_upper = cells[main] - m_lower;
    main_t = half_cosine(0, t_le, m_lower);
    const std::vector<double> up = half_cosine(t_le, mp.length, m_upper);
    main_t.insert(main_t.end(), up.begin() + 1, up.end());
  } else if (spacing == SurfaceSpacing::kTanh) {
    const double t_le = farthest_parameter(mp, shape.x[0], shape.y[0]);
    const long m_lower = cells[main] / 2, m_upper = cells[main] - m_lower;
    const double le = spec.leading_edge * chord, te = spec.trailing_edge * chord;
    main_t = vinokur_spacing(0, t_le, m_lower, te, le);
    const std::vector<double> up = vinokur_spacing(t_le, mp.length, m_upper, le, te);
    main_t.insert(main_t.end(), up.begin() + 1, up.end());
  } else {
    const double lambda = 0.02 * chord;
    main_t = equidistribute(0.0, mp.length, cells[main], [&](double t) {
      const double te = std::min(t, mp.length - t);
      return 1.0 + std::sqrt(chord * std::abs(mp.curvature(t))) + 4.0 * std::exp(-te / lambda);
    });
  }

  AirfoilShape out;
  out.name = shape.name;
  out.source = shape.source;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    out.corners.push_back(out.x.size());
    std::vector<double> t;
    if (k == main) {
      t = main_t;
    } else {
      for (long j = 0; j <= cells[k]; ++j)
        t.push_back(pieces[k].length * j / static_cast<double>(cells[k]));
    }
    for (std::size_t j = 0; j + 1 < t.size(); ++j) {  // the piece's end is the next piece's start
      double x, y;
      pieces[k].point(t[j], x, y);
      out.x.push_back(x);
      out.y.push_back(y);
    }
  }
  // Exact corner positions (the spline reproduces its knots, but keep them bit-exact).
  for (std::size_t k = 0; k < corners.size(); ++k) {
    out.x[out.corners[k]] = shape.x[corners[k]];
    out.y[out.corners[k]] = shape.y[corners[k]];
  }
  out.lines.assign(out.x.size(), 0);
  if (static_cast<long>(out.size()) != points)
    throw Error("resample_airfoil: internal point count mismatch");
  try {
    validate_airfoil(out);
  } catch (const InputError& e) {
    throw InputError("resampling to " + std::to_string(points) +
                         " points gives an invalid surface (" + e.detail() +
                         "); use more points or a smoother shape",
                     ErrorContext{shape.source, 0, 0, {}});
  }
  return out;
}

// ---- registry ------------------------------------------------------------------------------
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
