#include "mesh/airfoil_grid.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/error.hpp"

namespace surrox::mesh {
namespace {

constexpr double kGridPi = 3.14159265358979323846;

struct Front {
  std::vector<double> x, y;
  std::size_t size() const { return x.size(); }
};

// Unit normals pointing away from the body (left of the clockwise i direction): the bisector of
// the turn at each node, so a corner (the trailing edge) gets the mean of its two sides. A turn
// of exactly π (a cusp) is taken as a right turn, i.e. convex, as a trailing edge is.
void front_normals(const Front& f, std::vector<double>& nx, std::vector<double>& ny) {
  const std::size_t n = f.size();
  nx.resize(n);
  ny.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t im = (i + n - 1) % n, ip = (i + 1) % n;
    const double pa = std::atan2(f.y[i] - f.y[im], f.x[i] - f.x[im]);
    const double pb = std::atan2(f.y[ip] - f.y[i], f.x[ip] - f.x[i]);
    double turn = std::remainder(pb - pa, 2 * kGridPi);
    if (turn > kGridPi - 1e-12) turn -= 2 * kGridPi;
    const double pm = pa + 0.5 * turn;
    nx[i] = -std::sin(pm);
    ny[i] = std::cos(pm);
  }
}

// Twice the signed area of triangle a, b, c.
double tri(double ax, double ay, double bx, double by, double cx, double cy) {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

// The smallest corner triangle of the cells between fronts p and q, relative to the cell's
// scale: positive for every strictly convex cell.
double worst_cell(const Front& p, const Front& q, std::size_t* where) {
  const std::size_t n = p.size();
  double worst = 1e300;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t k = (i + 1) % n;
    const double ax = p.x[i], ay = p.y[i], bx = p.x[k], by = p.y[k];
    const double cx = q.x[k], cy = q.y[k], dx = q.x[i], dy = q.y[i];
    const double scale = std::max({std::hypot(bx - ax, by - ay), std::hypot(dx - ax, dy - ay),
                                   std::hypot(cx - bx, cy - by), std::hypot(cx - dx, cy - dy)});
    const double t = std::min({tri(ax, ay, bx, by, cx, cy), tri(ax, ay, cx, cy, dx, dy),
                               tri(ax, ay, bx, by, dx, dy), tri(bx, by, cx, cy, dx, dy)}) /
                     (scale * scale);
    if (t < worst) {
      worst = t;
      if (where) *where = i;
    }
  }
  return worst;
}

// Arc length of each node of the front (and the closing node n) over the front's length.
void arc_fractions(const Front& f, std::vector<double>& out) {
  const std::size_t n = f.size();
  out.assign(n + 1, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t k = (i + 1) % n;
    out[i + 1] = out[i] + std::hypot(f.x[k] - f.x[i], f.y[k] - f.y[i]);
  }
  for (double& v : out) v /= out[n];
}

// The front with nodes 1 … n−1 moved along it to the arc-length positions target[i] (s: the
// front's cumulative arc length at its nodes, s[n] its whole length; targets increasing).
Front moved_along(const Front& f, const std::vector<double>& s, const std::vector<double>& target) {
  const std::size_t n = f.size();
  Front out = f;
  std::size_t seg = 0;
  for (std::size_t i = 1; i < n; ++i) {
    while (seg + 1 < n && s[seg + 1] < target[i]) ++seg;
    const std::size_t k = (seg + 1) % n;
    const double len = s[seg + 1] - s[seg];
    const double w = len > 0 ? std::clamp((target[i] - s[seg]) / len, 0.0, 1.0) : 0.0;
    out.x[i] = f.x[seg] + w * (f.x[k] - f.x[seg]);
    out.y[i] = f.y[seg] + w * (f.y[k] - f.y[seg]);
  }
  return out;
}

// Slides the nodes of `f` along it: their arc-length positions diffuse in index space with a
// total strength `mu` (explicit passes of at most 0.45, which keep the order), then move a
// fraction `b` of the way to uniform arc length. Node 0 stays.
void smooth_along(Front& f, double mu, double b, const std::vector<double>& keep, double a) {
  const std::size_t n = f.size();
  std::vector<double> s(n + 1, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t k = (i + 1) % n;
    s[i + 1] = s[i] + std::hypot(f.x[k] - f.x[i], f.y[k] - f.y[i]);
  }
  const double total = s[n];
  std::vector<double> t(s.begin(), s.end()), u(n + 1);
  if (a > 0 && keep.size() == n + 1)
    for (std::size_t i = 1; i < n; ++i) t[i] = (1 - a) * t[i] + a * keep[i] * total;
  const int passes = static_cast<int>(std::ceil(mu / 0.45));
  const double m = passes > 0 ? mu / passes : 0.0;
  for (int pass = 0; pass < passes; ++pass) {
    u[0] = 0;
    u[n] = total;
    for (std::size_t i = 1; i < n; ++i) u[i] = t[i] + m * (t[i - 1] + t[i + 1] - 2 * t[i]);
    std::swap(t, u);
  }
  for (std::size_t i = 1; i < n; ++i)
    t[i] = (1 - b) * t[i] + b * total * static_cast<double>(i) / static_cast<double>(n);
  f = moved_along(f, s, t);
}

// The arc-length increments of a front away from node 0 (the trailing edge's grid line): the
// lower side (nodes 1, 2, …, n/2) and the upper side (n − 1, n − 2, …).
void side_increments(const Front& f, std::vector<double>& lower, std::vector<double>& upper) {
  const std::size_t n = f.size(), half = n / 2;
  const auto len = [&](std::size_t i) {
    const std::size_t k = (i + 1) % n;
    return std::hypot(f.x[k] - f.x[i], f.y[k] - f.y[i]);
  };
  lower.resize(half);
  upper.resize(n - half);
  for (std::size_t k = 0; k < half; ++k) lower[k] = len(k);
  for (std::size_t k = 0; k < n - half; ++k) upper[k] = len(n - 1 - k);
}

// Pulls the nodes either side of node 0 towards it along the front, by a fraction `weight`: the
// widths of the cells across that line become at most max(surface's width, first · growth^k)
// for the k-th cell away from it, until the first cell that is narrower already; the rest of
// each side stretches evenly to keep its length. So the wake line carries the surface's TE
// clustering downstream as a C-grid's wake cut does; without it the lines clustered at the TE
// fan out around it within a hundredth of a chord (docs/validation/rans.md).
void cluster_at_wake(Front& f, const std::vector<double>& surface_lower,
                     const std::vector<double>& surface_upper, double growth, double weight) {
  const std::size_t n = f.size(), half = n / 2;
  std::vector<double> lower, upper;
  side_increments(f, lower, upper);
  const auto redistribute = [&](std::vector<double>& d, const std::vector<double>& surface) {
    double deficit = 0, free = 0, cap = surface[0];
    std::vector<bool> capped(d.size(), false);
    bool open = true;  // capping stops at the first cell narrower than its cap
    for (std::size_t k = 0; k < d.size(); ++k, cap *= growth) {
      const double limit = std::max(cap, surface[k]);
      if (open && limit < d[k]) {
        deficit += d[k] - limit;
        d[k] = limit;
        capped[k] = true;
      } else {
        open = false;
        free += d[k];
      }
    }
    if (!(free > 0)) return false;  // every cell capped (a coarse front far out)
    for (std::size_t k = 0; k < d.size(); ++k)
      if (!capped[k]) d[k] *= 1 + deficit / free;
    return true;
  };
  // A side whose every cell would be capped stays as it is.
  std::vector<double> new_lower = lower, new_upper = upper;
  if (!redistribute(new_lower, surface_lower)) new_lower = lower;
  if (!redistribute(new_upper, surface_upper)) new_upper = upper;
  std::vector<double> s(n + 1, 0.0), t(n + 1, 0.0);
  for (std::size_t k = 0; k < half; ++k) {
    s[k + 1] = s[k] + lower[k];
    t[k + 1] = t[k] + new_lower[k];
  }
  double total = s[half];
  for (std::size_t k = 0; k < n - half; ++k) total += upper[k];
  s[n] = t[n] = total;
  for (std::size_t k = 0; k + 1 < n - half; ++k) {
    s[n - k - 1] = s[n - k] - upper[k];
    t[n - k - 1] = t[n - k] - new_upper[k];
  }
  for (std::size_t i = 1; i < n; ++i) t[i] = (1 - weight) * s[i] + weight * t[i];
  f = moved_along(f, s, t);
}

// One marching step from p by `step`, with normal dissipation of strength `nu` (per pass,
// ≤ 0.5) applied where the step is large relative to the spacing along the front.
Front march(const Front& p, double step, double nu, int extra_passes) {
  const std::size_t n = p.size();
  std::vector<double> nx, ny, lambda(n);
  front_normals(p, nx, ny);
  double lambda_max = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t im = (i + n - 1) % n, ip = (i + 1) % n;
    const double ds = 0.5 * (std::hypot(p.x[i] - p.x[im], p.y[i] - p.y[im]) +
                             std::hypot(p.x[ip] - p.x[i], p.y[ip] - p.y[i]));
    lambda[i] = step / ds;
    lambda_max = std::max(lambda_max, lambda[i]);
  }
  if (nu > 0) {
    const int passes = std::min(40, static_cast<int>(std::ceil(lambda_max))) + extra_passes;
    std::vector<double> mx(n), my(n);
    for (int pass = 0; pass < passes; ++pass) {
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t im = (i + n - 1) % n, ip = (i + 1) % n;
        const double w = 0.5 * nu * std::min(1.0, lambda[i] + extra_passes);
        mx[i] = nx[i] + 0.5 * w * (nx[im] + nx[ip] - 2 * nx[i]);
        my[i] = ny[i] + 0.5 * w * (ny[im] + ny[ip] - 2 * ny[i]);
      }
      for (std::size_t i = 0; i < n; ++i) {
        const double len = std::hypot(mx[i], my[i]);
        nx[i] = mx[i] / len;
        ny[i] = my[i] / len;
      }
    }
  }
  Front q = p;
  for (std::size_t i = 0; i < n; ++i) {
    q.x[i] = p.x[i] + step * nx[i];
    q.y[i] = p.y[i] + step * ny[i];
  }
  return q;
}

}  // namespace

double geometric_growth_ratio(double first, double total, long cells) {
  if (!(first > 0) || !(total > 0) || cells < 1)
    throw InputError("geometric growth needs positive sizes and cells");
  if (first * cells >= total * (1 - 1e-12)) {
    if (first * cells <= total * (1 + 1e-12)) return 1.0;
    // Shrinking layers: solve on (0, 1).
  }
  auto sum = [&](double r) {
    return std::abs(r - 1) < 1e-12 ? first * cells : first * (std::pow(r, cells) - 1) / (r - 1);
  };
  double lo, hi;
  if (sum(1.0) < total) {
    lo = 1.0;
    hi = 2.0;
    while (sum(hi) < total) hi *= 2;
  } else {
    lo = 1e-6;
    hi = 1.0;
  }
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    (sum(mid) < total ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

namespace {

// The growth ratio of nj layers from h1 to depth; InputError when the layers would shrink or
// grow faster than 1.35.
double checked_layer_growth_ratio(double h1, double depth, long nj) {
  if (h1 * nj > depth)
    throw InputError(
        "first_cell_height × cells_normal exceeds the far-field distance: the layers would shrink");
  const double ratio = geometric_growth_ratio(h1, depth, nj);
  if (ratio > 1.35) {
    std::ostringstream msg;
    msg << "layer growth ratio " << ratio
        << " too large (max 1.35): use more cells_normal, a larger "
        << "first_cell_height or a smaller farfield_radius";
    throw InputError(msg.str());
  }
  return ratio;
}

// Front f as grid line j (i = ni repeats i = 0: the O-grid's cut).
void store_grid_layer(CurvilinearGrid& grid, long ni, long j, const Front& f) {
  for (long i = 0; i < ni; ++i) {
    grid.x(i, j) = f.x[i];
    grid.y(i, j) = f.y[i];
  }
  grid.x(ni, j) = f.x[0];
  grid.y(ni, j) = f.y[0];
}

// What marching every layer shares: the layers' wall distances d, the chord, the base
// dissipation nu, the options and the surface's widths from the TE.
struct LayerMarch {
  const std::vector<double>& d;
  double chord, nu;
  const AirfoilGridOptions& o;
  const std::vector<double>& surface_lower;
  const std::vector<double>& surface_upper;
};

// Layer j + 1 marched from layer j (p); counts in `relaxed` a layer whose first attempt came
// out invalid.
Front march_grid_layer(const LayerMarch& m, const Front& p, long j,
                       const std::vector<double>& fractions, long& relaxed) {
  const auto& d = m.d;
  const auto& o = m.o;
  const double chord = m.chord, nu = m.nu;
  const double step = d[j + 1] - d[j];
  const double mid = 0.5 * (d[j] + d[j + 1]);
  // Sliding rate toward uniform arc length: ∝ (step / (d + c)) · (d / (d + c)).
  const double slide = j == 0 ? 0.0 : std::min(0.5, step / (mid + chord) * mid / (mid + chord));
  // Dissipation fades in over the first 5 % of a chord, so that the wall layers stay
  // orthogonal (the first layer gets none: it is the exact normal offset of the surface); a
  // layer that comes out invalid is re-marched with more.
  const double ramp = j == 0 ? 0.0 : mid / (mid + 0.05 * chord);
  // Tangential diffusion of the nodes along the front, ∝ step / (d + c/10): it fans the
  // lines clustered at the trailing edge around it into the wake within a fraction of a chord.
  // Nodes keep the previous layer's relative arc-length positions, more so away from the
  // wall: without this, concave regions focus the grid lines into a caustic.
  const double keep_weight = j == 0 ? 0.0 : std::min(1.0, o.smoothing) * mid / (mid + 0.2 * chord);
  const double diffusion = 64 * o.smoothing * ramp * ramp * step / (mid + 0.1 * chord);
  Front q;
  bool ok = false;
  for (int attempt = 0; attempt < 8 && !ok; ++attempt) {
    const double nu_try = attempt == 0 ? nu * ramp : std::max(nu, 0.25);
    q = march(p, step, nu_try, attempt == 0 ? 0 : 2 << attempt);
    smooth_along(q, diffusion, slide, fractions, keep_weight);
    // A layer that stays invalid with more dissipation gets less wake clustering (halved per
    // attempt from the fifth, none at the last): coarse fronts far out cannot carry it all.
    const double wake = attempt < 4 ? 1.0 : (attempt == 7 ? 0.0 : std::pow(0.5, attempt - 3));
    if (o.wake_growth > 0 && j > 0)
      cluster_at_wake(q, m.surface_lower, m.surface_upper, o.wake_growth, ramp * wake);
    ok = worst_cell(p, q, nullptr) > 0;
    if (!ok && attempt == 0) ++relaxed;
  }
  return q;
}

// Marches the nj layers from the surface front p into grid (j = 0 the surface); returns how
// many layers needed more dissipation than planned.
long march_grid_layers(Front p, const std::vector<double>& d, double chord,
                       const AirfoilGridOptions& o, long ni, long nj, CurvilinearGrid& grid) {
  store_grid_layer(grid, ni, 0, p);
  std::vector<double> fractions;
  arc_fractions(p, fractions);
  long relaxed = 0;
  const double nu = 0.5 * std::clamp(o.smoothing, 0.0, 1.0);
  std::vector<double> surface_lower, surface_upper;  // the surface's widths from the TE
  side_increments(p, surface_lower, surface_upper);
  const LayerMarch march_with{d, chord, nu, o, surface_lower, surface_upper};
  for (long j = 0; j < nj; ++j) {
    Front q = march_grid_layer(march_with, p, j, fractions, relaxed);
    // A layer still not convex everywhere is kept: a merely non-convex cell is valid, and a
    // folded one is reported below.
    store_grid_layer(grid, ni, j + 1, q);
    p = std::move(q);
    arc_fractions(p, fractions);
  }
  return relaxed;
}

// Outer layers scaled radially (per i) so that the last one is the far-field circle.
void scale_to_farfield(CurvilinearGrid& grid, long ni, long nj, const std::vector<double>& d,
                       double depth, double radius, double cx, double cy) {
  const double blend_from = 0.3 * depth;
  for (long i = 0; i <= ni; ++i) {
    const double s = radius / std::hypot(grid.x(i, nj) - cx, grid.y(i, nj) - cy);
    for (long j = 1; j <= nj; ++j) {
      if (d[j] <= blend_from) continue;
      const double w = std::pow((d[j] - blend_from) / (depth - blend_from), 2);
      const double f = 1 + w * (s - 1);
      grid.x(i, j) = cx + (grid.x(i, j) - cx) * f;
      grid.y(i, j) = cy + (grid.y(i, j) - cy) * f;
    }
  }
}

// InputError naming the first folded cell (non-positive area) of the grid.
void check_no_folded_cells(const CurvilinearGrid& grid, long ni, long nj,
                           const std::string& airfoil) {
  for (long i = 0; i < ni; ++i)
    for (long j = 0; j < nj; ++j) {
      const double a2 =
          (grid.x(i + 1, j + 1) - grid.x(i, j)) * (grid.y(i, j + 1) - grid.y(i + 1, j)) -
          (grid.y(i + 1, j + 1) - grid.y(i, j)) * (grid.x(i, j + 1) - grid.x(i + 1, j));
      if (!(a2 > 0)) {
        std::ostringstream msg;
        msg << "O-grid generation failed for '" << airfoil << "': cell (i=" << i << ", j=" << j
            << ") is folded; try a larger smoothing, more cells_around or a larger "
               "first_cell_height";
        throw InputError(msg.str());
      }
    }
}

}  // namespace

CurvilinearGrid build_airfoil_grid(const AirfoilShape& input, const AirfoilGridOptions& o,
                                   AirfoilGridInfo* info) {
  const long ni = o.cells_around, nj = o.cells_normal;
  if (ni < 16) throw InputError("cells_around must be at least 16, got " + std::to_string(ni));
  if (nj < 4) throw InputError("cells_normal must be at least 4, got " + std::to_string(nj));
  if (!(o.first_cell_height > 0) || !(o.farfield_radius > 1))
    throw InputError("first_cell_height must be > 0 and farfield_radius > 1 chord");
  const AirfoilShape shape = resample_airfoil(
      input, ni, SurfaceSpacingSpec{o.spacing, o.leading_edge_spacing, o.trailing_edge_spacing});
  const double chord = shape.chord();
  const std::size_t le = shape.leading_edge();
  const double cx = 0.5 * (shape.x[0] + shape.x[le]), cy = 0.5 * (shape.y[0] + shape.y[le]);
  const double radius = o.farfield_radius * chord, h1 = o.first_cell_height * chord;
  // The marched front at distance d from a body of chord c is close to a circle of radius
  // d + c/4 about mid-chord; the final radial scaling then only moves nodes by a few percent.
  const double depth = radius - 0.25 * chord;
  const double ratio = checked_layer_growth_ratio(h1, depth, nj);
  std::vector<double> d(nj + 1, 0.0);
  for (long j = 1; j <= nj; ++j) d[j] = d[j - 1] + h1 * std::pow(ratio, j - 1);
  d[nj] = depth;

  CurvilinearGrid grid;
  grid.x = HostMatrix("airfoil_grid_x", ni + 1, nj + 1);
  grid.y = HostMatrix("airfoil_grid_y", ni + 1, nj + 1);
  Front p;
  p.x = shape.x;
  p.y = shape.y;
  const long relaxed = march_grid_layers(std::move(p), d, chord, o, ni, nj, grid);
  scale_to_farfield(grid, ni, nj, d, depth, radius, cx, cy);
  check_no_folded_cells(grid, ni, nj, shape.name);
  if (info) {
    info->chord = chord;
    info->center_x = cx;
    info->center_y = cy;
    info->growth_ratio = ratio;
    info->relaxed_layers = relaxed;
    info->shape = describe_shape(shape);
  }
  return grid;
}

Schema airfoil_mesh_schema() {
  Schema s(
      "Body-fitted O-grid around an airfoil, marched from the surface (hyperbolic marching with "
      "dissipation); i runs TE → lower → LE → upper, j from the wall to a far-field circle.");
  s.component("airfoil", airfoil_sources(),
              "airfoil shape: NACA designation, coordinate file or Joukowski map")
      .default_type("naca");
  s.integer("cells_around", "cells around the airfoil (surface points of the O-grid, i direction)")
      .at_least(16)
      .at_most(100000)
      .fallback("256");
  s.integer("cells_normal", "cells from the wall to the far field (j direction)")
      .at_least(4)
      .at_most(100000)
      .fallback("128");
  s.real("first_cell_height",
         "wall-normal height of the first cell layer (1e-3 inviscid, 1e-4 to 5e-4 "
         "for laminar Re ~ 5000)")
      .units("chord")
      .above(0)
      .at_most(0.1)
      .fallback("1e-3");
  s.real("farfield_radius", "radius of the outer boundary circle about mid-chord")
      .units("chord")
      .at_least(2)
      .at_most(1000)
      .fallback("30");
  s.choice("surface_spacing", {"cosine", "curvature", "tanh"},
           "surface point distribution: cosine clusters at LE and TE (both spacings ∝ "
           "1/cells_around²); curvature follows √(c|κ|); tanh: Vinokur's stretching on each "
           "surface from trailing_edge_spacing to leading_edge_spacing")
      .fallback("cosine");
  s.real("leading_edge_spacing", "surface_spacing tanh: arc length of the cells at the LE")
      .units("chord")
      .above(0)
      .at_most(0.1)
      .fallback("5e-4");
  s.real("trailing_edge_spacing", "surface_spacing tanh: arc length of the cells at the TE")
      .units("chord")
      .above(0)
      .at_most(0.1)
      .fallback("5e-4");
  s.real("smoothing",
         "scale of the marching dissipation and of the node diffusion along each layer (0: "
         "pure normal marching, except that an invalid layer is re-marched with dissipation; "
         "larger spreads the trailing-edge and concave-region lines faster, away from the wall)")
      .at_least(0)
      .at_most(2)
      .fallback("1");
  s.real("wake_growth",
         "growth ratio of the cell widths across the trailing edge's grid line on every layer, "
         "from the surface's TE spacing until the layer's own spacing (the near wake, as a "
         "C-grid's wake cut clusters it); 0: off, the lines fan out around the TE")
      .at_least(0)
      .at_most(2)
      .fallback("0");
  return s;
}

AirfoilGridOptions airfoil_grid_options(const CaseNode& m) {
  AirfoilGridOptions o;
  o.cells_around = static_cast<long>(m.integer("cells_around"));
  o.cells_normal = static_cast<long>(m.integer("cells_normal"));
  o.first_cell_height = m.real("first_cell_height");
  o.farfield_radius = m.real("farfield_radius");
  const std::string spacing = m.string("surface_spacing");
  o.spacing = spacing == "curvature" ? SurfaceSpacing::kCurvature
              : spacing == "tanh"    ? SurfaceSpacing::kTanh
                                     : SurfaceSpacing::kCosine;
  o.leading_edge_spacing = m.real("leading_edge_spacing");
  o.trailing_edge_spacing = m.real("trailing_edge_spacing");
  o.smoothing = m.real("smoothing");
  o.wake_growth = m.real("wake_growth");
  if (o.wake_growth > 0 && o.wake_growth <= 1)
    m.fail("wake_growth", "must be 0 (off) or a growth ratio above 1");
  return o;
}

CurvilinearGrid build_airfoil_grid(const CaseNode& m, AirfoilGridInfo* info) {
  const AirfoilGridOptions o = airfoil_grid_options(m);
  const AirfoilShape shape = make_airfoil(m.section("airfoil"));
  try {
    return build_airfoil_grid(shape, o, info);
  } catch (const InputError& e) {
    if (!e.context().file.empty()) throw;
    m.fail("", e.detail());
  }
}

}  // namespace surrox::mesh
