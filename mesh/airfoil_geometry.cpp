// The airfoil shape itself: its measures, descriptors, validation and the Selig-order builder.
#include "mesh/airfoil_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace surrox::mesh {
namespace {

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

}  // namespace surrox::mesh
