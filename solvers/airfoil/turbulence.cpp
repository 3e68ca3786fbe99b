#include "solvers/airfoil/turbulence.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "solvers/airfoil/flow_level.hpp"
#include "solvers/airfoil/spalart_allmaras.hpp"
#include "solvers/airfoil/turbulence_convection.hpp"
#include "solvers/scoped_phase.hpp"

namespace surrox::solvers::airfoil {
namespace {

// The cells of one hyperplane i + j = plane of the slab, for both sweeps of the ν̃ update.
struct TurbulenceSweep {
  struct Forward {};
  struct Backward {};

  KOKKOS_INLINE_FUNCTION double neighbours(long j, long i, bool lower) const {
    const long own = i + j;
    double sum = 0;
    for (int n = 0; n < 4; ++n) {
      long jn = j, in = i;
      if (n == 0) {
        if (!periodic && i == 0) continue;
        in = wrap(i - 1, ni);
      } else if (n == 1) {
        if (!periodic && i == ni - 1) continue;
        in = wrap(i + 1, ni);
      } else if (n == 2) {
        if (j == 0 && !lo) continue;
        jn = j - 1;
      } else {
        if (j == nl - 1 && !hi) continue;
        jn = j + 1;
      }
      const long pn = in + jn;
      if (lower ? pn >= own : pn <= own) continue;
      // Rows −1 and nl: the neighbour ranks' edge rows (their Δν̃ in edge_lo, edge_hi).
      const double dn = jn < 0 ? edge_lo(in) : (jn == nl ? edge_hi(in) : du(jn, in));
      sum += off(n, j, i) * dn;
    }
    return sum;
  }

  KOKKOS_INLINE_FUNCTION void operator()(Forward, long j) const {
    const long i = plane - j;
    du(j, i) = (-res(j, i) - neighbours(j, i, true)) / diag(j, i);
  }
  KOKKOS_INLINE_FUNCTION void operator()(Backward, long j) const {
    const long i = plane - j;
    du(j, i) -= neighbours(j, i, false) / diag(j, i);
  }

  template <class Tag>
  void run(long p, const char* label) {
    plane = p;
    const long jlo = std::max(0L, p - (ni - 1)), jhi = std::min(nl - 1, p);
    Kokkos::parallel_for(label, Kokkos::RangePolicy<Tag>(jlo, jhi + 1), *this);
  }

  Array2 res, diag, du;
  Array3 off;
  Kokkos::View<double*> edge_lo, edge_hi;
  long ni, nl, plane = 0;
  bool periodic, lo, hi;
};

// Column c clamped to a rectangle's 0 … ni − 1 (its reconstruction falls back to one side).
KOKKOS_INLINE_FUNCTION long clamp_column(long c, long ni) {
  return c < 0 ? 0 : (c >= ni ? ni - 1 : c);
}

// MPI tags of the ν̃ wavefront (LU-SGS uses 4103, 4104).
constexpr int kTagTurbulenceForward = 4105, kTagTurbulenceBackward = 4106;

}  // namespace

void fill_turbulence_rows(FlowLevel& level) {
  const bool inner = level.slab.has_wall(), outer = level.slab.has_far_field();
  const Array3 nt = level.nu_tilde, w = level.w;
  const Array2 sxj = level.geometry.sxj, syj = level.geometry.syj;
  const long nl = level.rows(), wall_begin = level.wall_begin;
  const bool wall = level.parameters.inner == InnerBoundary::kWall;
  const double nt_inf = level.nu_tilde_inf;
  if (inner || outer)
    Kokkos::parallel_for(
        "Turbulence::fill_rows", Range1(0, level.ni()), KOKKOS_LAMBDA(long i) {
          if (outer) {  // in where the far field flows in, extrapolated where it flows out
            const double q = w(1, nl + 2, i) * sxj(nl, i) + w(2, nl + 2, i) * syj(nl, i);
            const double g = q < 0 ? nt_inf : nt(0, nl + 1, i);
            nt(0, nl + 2, i) = nt(0, nl + 3, i) = g;
          }
          if (!inner) return;
          if (!wall) {
            nt(0, 0, i) = nt(0, 1, i) = nt_inf;
          } else {
            const double sign = i >= wall_begin ? -1.0 : 1.0;  // no-slip wall: ν̃ = 0 on it
            nt(0, 1, i) = sign * nt(0, 2, i);
            nt(0, 0, i) = sign * nt(0, 3, i);
          }
        });
  level.nu_ghosts.exchange(level.nu_tilde);
}

TurbulenceSolver::TurbulenceSolver(const FlowLevel& level) {
  const long nl = level.rows(), ni = level.ni();
  res_ = Array2("Turbulence::residual", nl, ni);
  diag_ = Array2("Turbulence::diagonal", nl, ni);
  du_ = Array2("Turbulence::du", nl, ni);
  off_ = Array3("Turbulence::off_diagonal", 4, nl, ni);
  edge_lo_ = Kokkos::View<double*>("Turbulence::edge_lo", ni);
  edge_hi_ = Kokkos::View<double*>("Turbulence::edge_hi", ni);
  edge_host_ = Kokkos::create_mirror_view(edge_lo_);
  send_host_ = Kokkos::View<double*, Kokkos::HostSpace>("Turbulence::send", ni);
}

namespace {

// The ν̃ residual of every cell (j, i) of the slab and its implicit operator: R in res, the
// diagonal in diag and the neighbours' coefficients in off; reduced: Σ (R / area)².
struct TurbulenceResidual {
  // The cell as its faces see it.
  struct Cell {
    long r, jg;
    double rho_c, u_c, v_c, nt_c, xc, yc;
  };

  // Face n of the cell (i − 1, i + 1, j − 1, j + 1): its convection and diffusion into rsum
  // and d, its share of the circulation into curl and its neighbour's coefficient into off.
  KOKKOS_INLINE_FUNCTION void face(int n, long j, long i, const Cell& c, double& rsum, double& d,
                                   double& curl) const {
    const long r = c.r, jg = c.jg;
    const double rho_c = c.rho_c, u_c = c.u_c, v_c = c.v_c, nt_c = c.nt_c, xc = c.xc, yc = c.yc;
    double sx, sy;
    long rn = r, cn = i;
    bool open_side = false;  // a non-periodic i end: the far-field state outside
    if (n == 0) {
      sx = -g.sxi(j, i), sy = -g.syi(j, i);
      open_side = !periodic && i == 0;
      cn = wrap(i - 1, ni);
    } else if (n == 1) {
      sx = g.sxi(j, i + 1), sy = g.syi(j, i + 1);
      open_side = !periodic && i == ni - 1;
      cn = wrap(i + 1, ni);
    } else if (n == 2) {
      sx = -g.sxj(j, i), sy = -g.syj(j, i);
      rn = r - 1;
    } else {
      sx = g.sxj(j + 1, i), sy = g.syj(j + 1, i);
      rn = r + 1;
    }
    if (open_side) {
      const double q = u_c * sx + v_c * sy;
      if (q < 0) rsum += q * (nt_inf - nt_c), d -= q;
      curl += v_c * sx - u_c * sy;
      off(n, j, i) = 0;
      return;
    }
    const double uf = 0.5 * (u_c + w(1, rn, cn)), vf = 0.5 * (v_c + w(2, rn, cn));
    curl += vf * sx - uf * sy;
    const double nt_n = nt(0, rn, cn);
    const double q = uf * sx + vf * sy, a = fmin(q, 0.0);
    if (second_order) {
      // The cells behind c and beyond n on the same grid line (clamped at the ends of a
      // rectangle; rows ±2 are ghost rows or the neighbour rank's).
      const long dr = rn - r, di = n == 0 ? -1 : (n == 1 ? 1 : 0);
      const long cb = periodic ? wrap(i - di, ni) : clamp_column(i - di, ni);
      const long cf = periodic ? wrap(i + 2 * di, ni) : clamp_column(i + 2 * di, ni);
      rsum += muscl_convection(q, nt(0, r - dr, cb), nt_c, nt_n, nt(0, rn + dr, cf), limiter, eps);
    } else {
      rsum += a * (nt_n - nt_c);
    }
    d -= a;
    // Diffusion with the face's molecular ν (Sutherland) and SA-neg's f_n.
    const double rho_f = 0.5 * (rho_c + w(0, rn, cn));
    const double theta_f = 0.5 * (w(3, r, i) / rho_c + w(3, rn, cn) / w(0, rn, cn));
    const double nu_f = mu_ref * sa::sutherland(theta_f / theta_inf, s_ratio) / rho_f;
    const double nt_f = 0.5 * (nt_c + nt_n), fn = sa::diffusion_fn(nt_f, nu_f);
    const double coef = (nu_f + (1 + sa::kCb2) * nt_f * fn - sa::kCb2 * nt_c * fn) / sa::kSigma;
    const double dx = g.xc(rn - 1, cn) - xc, dy = g.yc(rn - 1, cn) - yc;
    const double geo = (sx * sx + sy * sy) / (sx * dx + sy * dy);
    rsum -= coef * geo * (nt_n - nt_c);
    const double cp = fmax(coef, 0.0) * geo;
    // Ghost rows of the physical boundaries are explicit; a no-slip wall's ghost is −ν̃_c,
    // implicit in ν̃_c. Rows of the neighbour ranks count as Δν̃ = 0 in the sweeps.
    const bool ghost = (n == 2 && jg == 0) || (n == 3 && jg == nj - 1);
    if (n == 2 && jg == 0 && wall && i >= wall_begin) {
      d += 2 * cp;
      off(n, j, i) = 0;
    } else if (ghost) {
      d += cp;
      off(n, j, i) = 0;
    } else {
      d += cp;
      off(n, j, i) = a - cp;
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(long j, long i, double& sum) const {
    const long r = j + 2, jg = j0 + j;
    const double rho_c = w(0, r, i), u_c = w(1, r, i), v_c = w(2, r, i);
    const double nt_c = nt(0, r, i);
    const double mu_c = mu_ref * sa::sutherland(w(3, r, i) / rho_c / theta_inf, s_ratio);
    const double xc = g.xc(j + 1, i), yc = g.yc(j + 1, i), area = g.area(j, i);
    const long ip = periodic ? wrap(i + 1, ni) : i + 1;
    const double lc = lam_i(j, i) + lam_i(j, ip) + lam_j(j, i) + lam_j(j + 1, i);
    const double lv = lv_i(j, i) + lv_i(j, ip) + lv_j(j, i) + lv_j(j + 1, i);
    double rsum = 0, d = (lc + lv) * inv_cfl, curl = 0;
    const Cell cell{r, jg, rho_c, u_c, v_c, nt_c, xc, yc};
    for (int n = 0; n < 4; ++n) face(n, j, i, cell, rsum, d, curl);
    const double omega = fabs(curl) / area;
    const sa::Source s = sa::source(nt_c, mu_c / rho_c, omega, g.wall_distance(j, i), model);
    rsum -= area * (s.production - s.destruction);
    d += area * s.implicit;
    res(j, i) = rsum;
    diag(j, i) = d;
    sum += rsum * rsum / (area * area);
  }

  Array3 w, nt, off;
  Array2 res, diag;
  SlabGeometry g;
  Array2 lam_i, lam_j, lv_i, lv_j;
  long ni, j0, nj, wall_begin;
  bool periodic, wall;
  double inv_cfl, mu_ref, theta_inf, s_ratio, nt_inf;
  sa::Model model;
  bool second_order;
  Limiter limiter;
  double eps;
};

// The residual's kernel over the level's flow, writing into off, res and diag.
TurbulenceResidual turbulence_residual(const FlowLevel& level, double cfl, const Array3& off,
                                       const Array2& res, const Array2& diag) {
  TurbulenceResidual k;
  k.w = level.w, k.nt = level.nu_tilde, k.off = off;
  k.res = res, k.diag = diag;
  k.g = level.geometry;
  k.lam_i = level.lambda_i, k.lam_j = level.lambda_j, k.lv_i = level.lambda_viscous_i;
  k.lv_j = level.lambda_viscous_j;
  k.ni = level.ni(), k.j0 = level.slab.first_row();
  k.nj = level.slab.nj(), k.wall_begin = level.wall_begin;
  k.periodic = level.periodic;
  k.wall = level.parameters.inner == InnerBoundary::kWall;
  k.inv_cfl = 1 / cfl, k.mu_ref = level.mu, k.theta_inf = level.p_inf;
  k.s_ratio = level.sutherland_ratio, k.nt_inf = level.nu_tilde_inf;
  k.model = level.parameters.turbulence_model;
  k.second_order = level.parameters.turbulence_convection == TurbulenceConvection::kSecondOrder;
  k.limiter = level.parameters.limiter;
  // van Albada's ε is a squared difference in free-stream units; ν̃'s unit is ν̃∞.
  k.eps = level.parameters.limiter_epsilon * k.nt_inf * k.nt_inf;
  return k;
}

}  // namespace

void TurbulenceSolver::evaluate(FlowLevel& level, double cfl) {
  ScopedPhase phase(level.phase_seconds, "turbulence");
  const long ni = level.ni(), nl = level.rows();
  double squares = 0;
  Kokkos::parallel_reduce("Turbulence::residual", Range2({0, 0}, {nl, ni}),
                          turbulence_residual(level, cfl, off_, res_, diag_), squares);
  level.slab.sum_over_ranks(&squares, 1);
  absolute_residual_ = std::sqrt(squares / static_cast<double>(ni * level.slab.nj()));
}

// The sweeps run as a wavefront over the ranks, as LU-SGS's do (lusgs_smoother.cpp): the lower
// rank's last row reaches this rank's forward sweep column by column, the upper rank's first
// row its backward sweep, so N ranks take the one-rank sweeps exactly.
void TurbulenceSolver::smooth(FlowLevel& level) {
  ScopedPhase phase(level.phase_seconds, "turbulence");
  const long ni = level.ni(), nl = level.rows();
  const int rank = level.slab.rank(), ranks = level.slab.ranks();
  const bool pipelined = level.parameters.lusgs_ranks == RankCoupling::kPipelined;
  const bool lo = pipelined && rank > 0, hi = pipelined && rank < ranks - 1;
  TurbulenceSweep sweep{res_, diag_, du_, off_,           edge_lo_, edge_hi_,
                        ni,   nl,    0,   level.periodic, lo,       hi};
  const long planes = ni + nl - 1, chunk = std::max(4L, ni / 16);
  const MPI_Comm comm = level.slab.comm();
  std::vector<MPI_Request> sends;
  // Columns [begin, end) of Δν̃ in `row` to `to`; into `edge` from `from`.
  const auto send = [&](long row, long begin, long end, int to, int tag) {
    const auto part = Kokkos::subview(send_host_, Rows(begin, end));
    Kokkos::deep_copy(part, Kokkos::subview(du_, row, Rows(begin, end)));
    sends.emplace_back();
    MPI_Isend(send_host_.data() + begin, static_cast<int>(end - begin), MPI_DOUBLE, to, tag, comm,
              &sends.back());
  };
  const auto receive = [&](const Kokkos::View<double*>& edge, long begin, long end, int from,
                           int tag) {
    MPI_Recv(edge_host_.data() + begin, static_cast<int>(end - begin), MPI_DOUBLE, from, tag, comm,
             MPI_STATUS_IGNORE);
    Kokkos::deep_copy(Kokkos::subview(edge, Rows(begin, end)),
                      Kokkos::subview(edge_host_, Rows(begin, end)));
  };
  long received = 0;
  for (long p = 0; p < planes; ++p) {
    while (lo && received < ni && received <= p) {
      const long end = std::min(received + chunk, ni);
      receive(edge_lo_, received, end, rank - 1, kTagTurbulenceForward);
      received = end;
    }
    sweep.run<TurbulenceSweep::Forward>(p, "Turbulence::forward");
    const long top = p - (nl - 1);
    if (hi && top >= 0 && ((top + 1) % chunk == 0 || top == ni - 1))
      send(nl - 1, top / chunk * chunk, top + 1, rank + 1, kTagTurbulenceForward);
  }
  if (!sends.empty())
    MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
  sends.clear();
  long lowest = ni;
  for (long p = planes - 1; p >= 0; --p) {
    const long top = p - (nl - 1);
    while (hi && top >= 0 && top < lowest) {
      const long begin = (lowest - 1) / chunk * chunk;
      receive(edge_hi_, begin, lowest, rank + 1, kTagTurbulenceBackward);
      lowest = begin;
    }
    sweep.run<TurbulenceSweep::Backward>(p, "Turbulence::backward");
    if (lo && p < ni && p % chunk == 0)
      send(0, p, std::min(p + chunk, ni), rank - 1, kTagTurbulenceBackward);
  }
  if (!sends.empty())
    MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
  const Array3 nt = level.nu_tilde;
  const Array2 du = du_;
  const bool clip = level.parameters.turbulence_model == sa::Model::kSa;
  Kokkos::parallel_for(
      "Turbulence::update", Range2({0, 0}, {nl, ni}), KOKKOS_LAMBDA(long j, long i) {
        const double v = nt(0, j + 2, i) + du(j, i);
        nt(0, j + 2, i) = clip ? fmax(v, 0.0) : v;
      });
  check(level);
}

// Collective: a non-finite ν̃ anywhere stops the run on every rank with the first such cell and
// the count (a NaN spreads through the line solves within a cycle: a count of every cell says
// the first one is not the origin).
void TurbulenceSolver::check(const FlowLevel& level) const {
  const Array3 nt = level.nu_tilde;
  const long ni = level.ni(), nl = level.rows(), none = nl * ni;
  long first = none, count = 0;  // the first bad cell j·ni + i of this slab, and how many
  Kokkos::parallel_reduce(
      "Turbulence::check", Range1(0, nl * ni),
      KOKKOS_LAMBDA(long n, long& lowest, long& bad) {
        const double v = nt(0, n / ni + 2, n % ni);
        if (!(v - v == 0)) {
          if (n < lowest) lowest = n;
          ++bad;
        }
      },
      Kokkos::Min<long>(first), count);
  // Global cell index (global j · ni + i) of every rank's first bad cell; the smallest wins.
  double found[2] = {count > 0 ? static_cast<double>(first + level.slab.first_row() * ni)
                               : static_cast<double>(INFINITY),
                     static_cast<double>(count)};
  if (level.slab.ranks() > 1) {
    MPI_Allreduce(MPI_IN_PLACE, &found[0], 1, MPI_DOUBLE, MPI_MIN, level.slab.comm());
    MPI_Allreduce(MPI_IN_PLACE, &found[1], 1, MPI_DOUBLE, MPI_SUM, level.slab.comm());
  }
  if (!std::isfinite(found[0])) return;
  const long g = static_cast<long>(found[0]);
  throw Error(fmt::format(
      "the airfoil solver diverged in the Spalart–Allmaras (ν̃) equation: cell (i = {}, j = {}) "
      "has a non-finite ν̃ ({} of {} cells); reduce solver.cfl or raise solver.cfl_ramp",
      g % ni, g / ni, static_cast<long>(found[1]), ni * level.slab.nj()));
}

}  // namespace surrox::solvers::airfoil
