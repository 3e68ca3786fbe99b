#include "solvers/airfoil/lusgs_smoother.hpp"

#include <algorithm>

#include "solvers/airfoil/flow_level.hpp"
#include "solvers/airfoil/flux.hpp"
#include "solvers/airfoil/slab_geometry.hpp"
#include "solvers/scoped_phase.hpp"

namespace surrox::solvers::airfoil {
namespace {

// MPI tags of the wavefront: edge columns of the forward and of the backward sweep.
constexpr int kTagForward = 4103, kTagBackward = 4104;

// The cells of one hyperplane i + j = plane, for both sweeps.
struct HyperplaneSweep {
  struct Forward {};
  struct Backward {};

  HyperplaneSweep(const FlowLevel& level, const Array3& update, const Array2& diagonal,
                  const Array2& lower_edge, const Array2& upper_edge, bool lower_rank,
                  bool upper_rank, int wall_mirror_passes)
      : u(level.u),
        du(update),
        res(level.res),
        geometry(level.geometry),
        lam_i(level.lambda_i),
        lam_j(level.lambda_j),
        lv_i(level.lambda_viscous_i),
        lv_j(level.lambda_viscous_j),
        diag(diagonal),
        edge_lo(lower_edge),
        edge_hi(upper_edge),
        ni(level.ni()),
        nl(level.rows()),
        periodic(level.periodic),
        omega(level.parameters.lusgs_omega),
        lo(lower_rank),
        hi(upper_rank),
        no_slip(level.viscous),
        wall_passes(level.slab.has_wall() && level.parameters.inner == InnerBoundary::kWall
                        ? wall_mirror_passes
                        : 0) {}

  KOKKOS_INLINE_FUNCTION void operator()(Forward, long j) const {
    const long i = plane - j;
    State sum;
    off_diagonal(j, i, true, sum);
    if (j == 0 && wall_passes > 0) {
      State b, x;
      for (int k = 0; k < 4; ++k) b[k] = -res(k, j, i) - sum[k];
      wall_solve(i, b, x);
      for (int k = 0; k < 4; ++k) du(k, j, i) = x[k];
      return;
    }
    const double d = diag(j, i);
    for (int k = 0; k < 4; ++k) du(k, j, i) = (-res(k, j, i) - sum[k]) / d;
  }

  KOKKOS_INLINE_FUNCTION void operator()(Backward, long j) const {
    const long i = plane - j;
    State sum;
    off_diagonal(j, i, false, sum);
    if (j == 0 && wall_passes > 0) {
      // D_w ΔU = D_w ΔU* − (upper terms) = −R − (lower terms at ΔU*) − (upper terms): the
      // lower-plane neighbours still hold the forward sweep's ΔU*.
      State lower, b, x;
      off_diagonal(j, i, true, lower);
      for (int k = 0; k < 4; ++k) b[k] = -res(k, j, i) - lower[k] - sum[k];
      wall_solve(i, b, x);
      for (int k = 0; k < 4; ++k) du(k, j, i) = x[k];
      return;
    }
    const double d = diag(j, i);
    for (int k = 0; k < 4; ++k) du(k, j, i) -= sum[k] / d;
  }

  // The ghost of a conservative state or update across the wall of unit normal (nx, ny): ρ and
  // ρE kept, momentum reversed (no-slip) or its normal part reflected (slip); M with M² = I.
  KOKKOS_INLINE_FUNCTION State mirror(const State& q, double nx, double ny) const {
    State m = q;
    if (no_slip) {
      m[1] = -q[1], m[2] = -q[2];
    } else {
      const double qn = q[1] * nx + q[2] * ny;
      m[1] = q[1] - 2 * qn * nx, m[2] = q[2] - 2 * qn * ny;
    }
    return m;
  }

  // The wall cell's block diagonal with the ghost as the mirror of the cell (ΔU_g = MΔU):
  //   D ΔU + ½ΔF_g·S_out − c MΔU = b,  c = ω½λ_w + λ_v,w,  F_g = F(U_g + MΔU) − F(U_g).
  // (D − cM) splits along M's eigenvectors: D − c on ρ, ρE and the tangential momentum (the
  // wall face's dissipation cancels for what the wall does not see), D + c on the normal
  // momentum (slip) or all momentum (no-slip, the doubled viscous term). The flux term, at most
  // about ½λ_w against D − c ≥ the other three faces, goes by fixed point, passes − 1 times.
  KOKKOS_INLINE_FUNCTION void wall_solve(long i, const State& b, State& x) const {
    const double sx = geometry.sxj(0, i), sy = geometry.syj(0, i), s = sqrt(sx * sx + sy * sy);
    const double nx = sx / s, ny = sy / s;
    const double d = diag(0, i), c = omega * lam_j(0, i) + lv_j(0, i);
    State u0;
    for (int k = 0; k < 4; ++k) u0[k] = u(k, 0, i);
    const State ug = mirror(u0, nx, ny), f0 = conservative_flux(ug, -sx, -sy);
    for (int pass = 0; pass < wall_passes; ++pass) {
      State r = b;
      if (pass > 0) {
        const State dg = mirror(x, nx, ny);
        State up;
        for (int k = 0; k < 4; ++k) up[k] = ug[k] + dg[k];
        if (!(up[0] > 0)) break;
        const State f1 = conservative_flux(up, -sx, -sy);
        for (int k = 0; k < 4; ++k) r[k] -= 0.5 * (f1[k] - f0[k]);
      }
      const double keep = 1 / (d - c), flip = 1 / (d + c);
      x[0] = r[0] * keep, x[3] = r[3] * keep;
      if (no_slip) {
        x[1] = r[1] * flip, x[2] = r[2] * flip;
      } else {
        const double rn = r[1] * nx + r[2] * ny;
        x[1] = (r[1] - rn * nx) * keep + rn * nx * flip;
        x[2] = (r[2] - rn * ny) * keep + rn * ny * flip;
      }
    }
  }

  // Σ over the neighbours on one side of the ordering (lower: plane < this cell's plane) of
  // ½ ΔF_n·S_cn − (ω ½λ_f + λ_v,f) ΔU_n, with ΔF_n = F(U_n + ΔU_n) − F(U_n). Rows −1 and nl
  // are the neighbour ranks' edge rows (U, ΔU in edge_lo, edge_hi).
  KOKKOS_INLINE_FUNCTION void off_diagonal(long j, long i, bool lower, State& sum) const {
    for (int k = 0; k < 4; ++k) sum[k] = 0;
    const long own = i + j;
    for (int n = 0; n < 4; ++n) {
      long jn = j, in = i;
      double sx, sy, coef;
      if (n == 0) {                         // i − 1
        if (!periodic && i == 0) continue;  // an open end of a rectangle: explicit
        in = wrap(i - 1, ni);
        sx = -geometry.sxi(j, i), sy = -geometry.syi(j, i), coef = omega * lam_i(j, i) + lv_i(j, i);
      } else if (n == 1) {  // i + 1
        if (!periodic && i == ni - 1) continue;
        in = wrap(i + 1, ni);
        sx = geometry.sxi(j, i + 1), sy = geometry.syi(j, i + 1),
        coef = omega * lam_i(j, in) + lv_i(j, in);
      } else if (n == 2) {  // j − 1
        if (j == 0 && !lo) continue;
        jn = j - 1;
        sx = -geometry.sxj(j, i), sy = -geometry.syj(j, i), coef = omega * lam_j(j, i) + lv_j(j, i);
      } else {  // j + 1
        if (j == nl - 1 && !hi) continue;
        jn = j + 1;
        sx = geometry.sxj(j + 1, i), sy = geometry.syj(j + 1, i),
        coef = omega * lam_j(j + 1, i) + lv_j(j + 1, i);
      }
      const long pn = in + jn;
      if (lower ? pn >= own : pn <= own) continue;
      State un, up, dn;
      for (int k = 0; k < 4; ++k) {
        if (jn < 0)
          un[k] = edge_lo(in, k), dn[k] = edge_lo(in, 4 + k);
        else if (jn == nl)
          un[k] = edge_hi(in, k), dn[k] = edge_hi(in, 4 + k);
        else
          un[k] = u(k, jn, in), dn[k] = du(k, jn, in);
        up[k] = un[k] + dn[k];
      }
      const State f1 = conservative_flux(up, sx, sy), f0 = conservative_flux(un, sx, sy);
      for (int k = 0; k < 4; ++k) sum[k] += 0.5 * (f1[k] - f0[k]) - coef * dn[k];
    }
  }

  // Runs the cells of hyperplane `p` in the direction of Tag.
  template <class Tag>
  void run(long p, const char* label) {
    plane = p;
    const long jlo = std::max(0L, p - (ni - 1)), jhi = std::min(nl - 1, p);
    Kokkos::parallel_for(label, Kokkos::RangePolicy<Tag>(jlo, jhi + 1), *this);
  }

  Array3 u, du, res;
  SlabGeometry geometry;
  Array2 lam_i, lam_j, lv_i, lv_j, diag, edge_lo, edge_hi;
  long ni, nl;
  bool periodic;
  long plane = 0;
  double omega;
  bool lo, hi, no_slip;
  int wall_passes;  // 0: the ghost is frozen (Jameson–Yoon); > 0: wall_solve()
};

// Columns [begin, end) of U and ΔU of `row` into `out` (ni, 8). A free function: CUDA does not
// allow device lambdas in private member functions.
void pack_edge(const Array3& u, const Array3& du, const Array2& out, long row, long begin,
               long end) {
  Kokkos::parallel_for(
      "LusgsSmoother::pack_edge", Range1(begin, end), KOKKOS_LAMBDA(long i) {
        for (int k = 0; k < 4; ++k) out(i, k) = u(k, row, i), out(i, 4 + k) = du(k, row, i);
      });
}

}  // namespace

LusgsSmoother::LusgsSmoother(const FlowLevel& level) {
  const auto& options = level.parameters.smoother_options;
  const auto mirror = options.find("wall_mirror");
  if (mirror != options.end()) wall_mirror_ = static_cast<int>(mirror->second);
  const long nl = level.rows(), ni = level.ni();
  du_ = Array3("LusgsSmoother::du", 4, nl, ni);
  diag_ = Array2("LusgsSmoother::diagonal", nl, ni);
  edge_lo_ = Array2("LusgsSmoother::edge_lo", ni, 8);
  edge_hi_ = Array2("LusgsSmoother::edge_hi", ni, 8);
  if (level.slab.ranks() > 1) {
    edge_send_ = Array2("LusgsSmoother::edge_send", ni, 8);
    // Chunks occupy disjoint columns, so the host copy may alias the device buffer.
    edge_host_send_ = Kokkos::create_mirror_view(edge_send_);
    edge_host_receive_ = Kokkos::create_mirror(edge_lo_);  // lands here, then into edge_lo/hi
  }
}

void LusgsSmoother::smooth(FlowLevel& level, double cfl, long /*iteration*/) {
  ScopedPhase phase(level.phase_seconds, "lusgs");
  const Array3 u = level.u, du = du_;
  const Array2 lam_i = level.lambda_i, lam_j = level.lambda_j, lv_i = level.lambda_viscous_i,
               lv_j = level.lambda_viscous_j, diag = diag_;
  const long ni = level.ni(), nl = level.rows();
  const int rank = level.slab.rank(), ranks = level.slab.ranks();
  const double omega = level.parameters.lusgs_omega;
  const double inv_cfl = 1 / cfl;
  const bool pipelined = level.parameters.lusgs_ranks == RankCoupling::kPipelined;
  const bool lo = pipelined && rank > 0, hi = pipelined && rank < ranks - 1;
  const bool periodic = level.periodic;

  Kokkos::parallel_for(
      "LusgsSmoother::diagonal", Range2({0, 0}, {nl, ni}), KOKKOS_LAMBDA(long j, long i) {
        const long ip = periodic ? wrap(i + 1, ni) : i + 1;
        const double lc = lam_i(j, i) + lam_i(j, ip) + lam_j(j, i) + lam_j(j + 1, i);
        const double lv = lv_i(j, i) + lv_i(j, ip) + lv_j(j, i) + lv_j(j + 1, i);
        // V/Δt with Δt = CFL·V/(Σ½λ + Σλ_v), plus the implicit spectral radii.
        diag(j, i) = (lc + lv) * inv_cfl + omega * lc + lv;
      });

  HyperplaneSweep sweep(level, du_, diag_, edge_lo_, edge_hi_, lo, hi, wall_mirror_);
  // Edge columns travel in chunks [c·chunk, (c + 1)·chunk) ∩ [0, ni), the same on both sides.
  const long chunk = std::max(4L, ni / 16), planes = ni + nl - 1;
  std::vector<MPI_Request> sends;

  // Forward: before hyperplane q, row 0's cell i = q needs the lower rank's column i; after it,
  // the last row's cell i = q − (nl − 1) is final for the upper rank.
  long received = 0;  // lower edge columns [0, received) are here
  for (long plane = 0; plane < planes; ++plane) {
    while (lo && received < ni && received <= plane) {
      const long end = std::min(received + chunk, ni);
      receive_edge(level, edge_lo_, received, end, rank - 1, kTagForward);
      received = end;
    }
    sweep.run<HyperplaneSweep::Forward>(plane, "LusgsSmoother::forward");
    const long top = plane - (nl - 1);
    if (hi && top >= 0 && ((top + 1) % chunk == 0 || top == ni - 1))
      send_edge(level, nl - 1, top / chunk * chunk, top + 1, rank + 1, kTagForward, sends);
  }
  if (!sends.empty())
    MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
  sends.clear();

  // Backward: before hyperplane q, the last row's cell i = q − (nl − 1) needs the upper rank's
  // column i (final); after it, row 0's cell i = q is final for the lower rank.
  long lowest = ni;  // upper edge columns [lowest, ni) are here
  for (long plane = planes - 1; plane >= 0; --plane) {
    const long top = plane - (nl - 1);
    while (hi && top >= 0 && top < lowest) {
      const long begin = (lowest - 1) / chunk * chunk;
      receive_edge(level, edge_hi_, begin, lowest, rank + 1, kTagBackward);
      lowest = begin;
    }
    sweep.run<HyperplaneSweep::Backward>(plane, "LusgsSmoother::backward");
    if (lo && plane < ni && plane % chunk == 0)
      send_edge(level, 0, plane, std::min(plane + chunk, ni), rank - 1, kTagBackward, sends);
  }
  if (!sends.empty())
    MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);

  const double r = level.parameters.max_update;
  Kokkos::parallel_for(
      "LusgsSmoother::update", Range2({0, 0}, {nl, ni}), KOKKOS_LAMBDA(long j, long i) {
        const State c{{u(0, j, i), u(1, j, i), u(2, j, i), u(3, j, i)}};
        const State d{{du(0, j, i), du(1, j, i), du(2, j, i), du(3, j, i)}};
        const double theta = update_fraction(c, d, r);
        for (int k = 0; k < 4; ++k) u(k, j, i) = c[k] + theta * d[k];
      });
}

void LusgsSmoother::send_edge(const FlowLevel& level, long row, long begin, long end,
                              int destination, int tag, std::vector<MPI_Request>& requests) {
  pack_edge(level.u, du_, edge_send_, row, begin, end);
  const Rows columns(begin, end);
  Kokkos::deep_copy(Kokkos::subview(edge_host_send_, columns, Kokkos::ALL),
                    Kokkos::subview(edge_send_, columns, Kokkos::ALL));
  requests.emplace_back();
  MPI_Isend(edge_host_send_.data() + 8 * begin, static_cast<int>(8 * (end - begin)), MPI_DOUBLE,
            destination, tag, level.slab.comm(), &requests.back());
}

void LusgsSmoother::receive_edge(const FlowLevel& level, const Array2& edge, long begin, long end,
                                 int source, int tag) {
  MPI_Recv(edge_host_receive_.data() + 8 * begin, static_cast<int>(8 * (end - begin)), MPI_DOUBLE,
           source, tag, level.slab.comm(), MPI_STATUS_IGNORE);
  const Rows columns(begin, end);
  Kokkos::deep_copy(Kokkos::subview(edge, columns, Kokkos::ALL),
                    Kokkos::subview(edge_host_receive_, columns, Kokkos::ALL));
}

}  // namespace surrox::solvers::airfoil
