// Resampling an airfoil surface: splines through its pieces and the surface spacings.
#include <fmt/format.h>

#include <algorithm>
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

}  // namespace surrox::mesh
