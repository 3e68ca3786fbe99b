#include "solvers/airfoil/line_implicit_smoother.hpp"

#include <mpi.h>
#include <spdlog/spdlog.h>

#include <type_traits>

#include "io/hdf5_checkpoint.hpp"
#include "solvers/airfoil/block_tridiagonal.hpp"
#include "solvers/airfoil/boundary_conditions.hpp"
#include "solvers/airfoil/flow_level.hpp"
#include "solvers/airfoil/update_limiter.hpp"
#include "solvers/scoped_phase.hpp"

namespace surrox::solvers::airfoil {
namespace {

// MPI tags: the elimination's G, the forward substitution's g, the back substitution's x.
constexpr int kLineTagGain = 4301, kLineTagForward = 4302, kLineTagBack = 4303;

using BlockArray = Kokkos::View<double***, Kokkos::LayoutRight>;

KOKKOS_INLINE_FUNCTION Block4 load_block(const BlockArray& b, long j, long i) {
  Block4 m;
  for (int n = 0; n < 16; ++n) m.a[n] = b(i, j, n);
  return m;
}

KOKKOS_INLINE_FUNCTION void store_block(const BlockArray& b, long j, long i, const Block4& m) {
  for (int n = 0; n < 16; ++n) b(i, j, n) = m.a[n];
}

// The kernels of one level's lines; k numbers the lines of a step, i = first + stride · k.
struct LineKernels {
  struct Eliminate {};
  struct Forward {};
  struct Back {};
  struct Sweep {};

  LineKernels(const FlowLevel& level, const LineImplicitSmoother::Operands& operands,
              const Array3& forward, const BlockArray& d_inverse, const BlockArray& lower,
              const BlockArray& gain, const Array2& edge_in, const Array2& edge_out, double cfl,
              bool roe_faces, double roe_linear_fix, bool exact_across_ranks)
      : u(operands.u),
        w(level.w),
        du(operands.du),
        g(forward),
        res(operands.res),
        faces(operands.faces),
        geometry(level.geometry),
        lam_i(level.lambda_i),
        lam_j(level.lambda_j),
        lv_i(level.lambda_viscous_i),
        lv_j(level.lambda_viscous_j),
        dinv(d_inverse),
        low(lower),
        gn(gain),
        in(edge_in),
        out(edge_out),
        ni(level.ni()),
        nl(level.rows()),
        wall_begin(level.wall_begin),
        periodic(level.periodic),
        omega(level.parameters.lusgs_omega),
        inv_cfl(1 / cfl),
        lo(exact_across_ranks && level.slab.rank() > 0),
        hi(exact_across_ranks && level.slab.rank() < level.slab.ranks() - 1),
        cut_lo(!exact_across_ranks && level.slab.rank() > 0),
        cut_hi(!exact_across_ranks && level.slab.rank() < level.slab.ranks() - 1),
        wall(level.slab.has_wall() && level.parameters.inner == InnerBoundary::kWall),
        viscous(level.viscous),
        roe(roe_faces),
        entropy_fix(level.parameters.entropy_fix),
        linear_fix(roe_linear_fix >= 0 ? roe_linear_fix : level.parameters.linear_fix) {}

  KOKKOS_INLINE_FUNCTION State prim(long j, long i) const {  // W of row j (−1 … nl)
    return {{w(0, j + 2, i), w(1, j + 2, i), w(2, j + 2, i), w(3, j + 2, i)}};
  }

  // The implicit dissipation of j-face jf (between rows jf − 1 and jf): LU-SGS's (ω½λ_f +
  // λ_v,f)I, or with `roe` ½|S| |Â| of the residual's Roe flux (first order, the same Harten
  // fixes) + λ_v,f I, which leaves the entropy and shear waves as little damped as the residual
  // does.
  KOKKOS_INLINE_FUNCTION Block4 face_dissipation(long jf, long i) const {
    if (!roe) return scaled_identity(omega * lam_j(jf, i) + lv_j(jf, i));
    const double sx = geometry.sxj(jf, i), sy = geometry.syj(jf, i), s = sqrt(sx * sx + sy * sy);
    Block4 d =
        roe_dissipation(prim(jf - 1, i), prim(jf, i), sx / s, sy / s, entropy_fix, linear_fix);
    for (int n = 0; n < 16; ++n) d.a[n] *= 0.5 * s;
    for (int k = 0; k < 4; ++k) d(k, k) += lv_j(jf, i);
    return d;
  }

  // ½A(W_n)·S − (face dissipation): the block of a j-neighbour in state wn across S.
  KOKKOS_INLINE_FUNCTION Block4 neighbour_block(const State& wn, double sx, double sy,
                                                const Block4& dissipation) const {
    Block4 a = flux_jacobian(wn, sx, sy);
    for (int n = 0; n < 16; ++n) a.a[n] = 0.5 * a.a[n] - dissipation.a[n];
    return a;
  }

  // The block-diagonal of cell (j, i) given its j-faces' dissipation: V/Δt and the i-faces'
  // LU-SGS terms, the j-faces' blocks, and on the wall row the mirrored ghost's block.
  KOKKOS_INLINE_FUNCTION Block4 diagonal(long j, long i, const Block4& below,
                                         const Block4& above) const {
    const long ip = periodic ? wrap(i + 1, ni) : i + 1;
    const double lc = lam_i(j, i) + lam_i(j, ip) + lam_j(j, i) + lam_j(j + 1, i);
    const double lv = lv_i(j, i) + lv_i(j, ip) + lv_j(j, i) + lv_j(j + 1, i);
    Block4 d = scaled_identity((lc + lv) * inv_cfl + omega * (lam_i(j, i) + lam_i(j, ip)) +
                               lv_i(j, i) + lv_i(j, ip));
    for (int n = 0; n < 16; ++n) d.a[n] += below.a[n] + above.a[n];
    if (j == 0 && wall) {
      const double sx = geometry.sxj(0, i), sy = geometry.syj(0, i), s = sqrt(sx * sx + sy * sy);
      const double nx = sx / s, ny = sy / s;
      const bool no_slip = viscous && i >= wall_begin;
      const State wg = wall_ghost_state(prim(0, i), nx, ny, no_slip);
      const Block4 a = neighbour_block(wg, -sx, -sy, below);
      // M: ρ, ρE kept; momentum reversed (no-slip) or its normal part reflected (slip).
      Block4 m = scaled_identity(1);
      if (no_slip) {
        m(1, 1) = m(2, 2) = -1;
      } else {
        m(1, 1) = 1 - 2 * nx * nx, m(1, 2) = m(2, 1) = -2 * nx * ny, m(2, 2) = 1 - 2 * ny * ny;
      }
      const Block4 am = product(a, m);
      for (int n = 0; n < 16; ++n) d.a[n] += am.a[n];
    }
    return d;
  }

  // Elimination down line i: D'⁻¹, the lower blocks and G of every row; in: the lower rank's
  // last G (k, 16); out: this rank's last G.
  KOKKOS_INLINE_FUNCTION void operator()(Eliminate, long k) const {
    const long i = first + stride * k;
    Block4 prev = scaled_identity(0);
    if (lo)
      for (int n = 0; n < 16; ++n) prev.a[n] = in(k, n);
    Block4 below = face_dissipation(0, i);
    for (long j = 0; j < nl; ++j) {
      const bool has_lower = j > 0 || lo, has_upper = j < nl - 1 || hi;
      const Block4 above = face_dissipation(j + 1, i);
      Block4 lower = scaled_identity(0), inverse;
      if (has_lower) {
        lower = neighbour_block(prim(j - 1, i), -geometry.sxj(j, i), -geometry.syj(j, i), below);
        store_block(low, j, i, lower);
      }
      if (!eliminate(diagonal(j, i, below, above), has_lower ? &lower : nullptr, prev, inverse))
        inverse = scaled_identity(0);  // cannot happen with D > 0; the state check catches NaN
      store_block(dinv, j, i, inverse);
      Block4 gain = scaled_identity(0);
      if (has_upper)
        gain = product(inverse, neighbour_block(prim(j + 1, i), geometry.sxj(j + 1, i),
                                                geometry.syj(j + 1, i), above));
      store_block(gn, j, i, gain);
      prev = gain;
      below = above;
    }
    if (hi)
      for (int n = 0; n < 16; ++n) out(k, n) = prev.a[n];
  }

  // Forward substitution up line i, right-hand side −R − (i-neighbours at their current ΔU);
  // in: the lower rank's last g (k, 4); out: this rank's last g.
  KOKKOS_INLINE_FUNCTION void operator()(Forward, long k) const { forward(k); }

  // Back substitution down line i into ΔU; in: the upper rank's first x (k, 4); out: this
  // rank's first x.
  KOKKOS_INLINE_FUNCTION void operator()(Back, long k) const { back(k); }

  // All lines of the step in their order, each forward then back, in one work item: the
  // Gauss–Seidel order over the lines is sequential anyway, and one launch per line cost more
  // than the line's own work on the coarse levels. Only without exchanges between the passes
  // (lines cut at the ranks' edges, or one rank).
  KOKKOS_INLINE_FUNCTION void operator()(Sweep, long) const {
    for (long k = 0; k < count; ++k) {
      forward(k);
      back(k);
    }
  }

  KOKKOS_INLINE_FUNCTION void forward(long k) const {
    const long i = first + stride * k;
    State prev{{0, 0, 0, 0}};
    if (lo)
      for (int c = 0; c < 4; ++c) prev[c] = in(k, c);
    for (long j = 0; j < nl; ++j) {
      State b;
      i_neighbours(j, i, b);
      if (j == 0 && cut_lo) cut_neighbour(0, i, -1, b);
      if (j == nl - 1 && cut_hi) cut_neighbour(nl, i, nl, b);
      for (int c = 0; c < 4; ++c) b[c] = -res(i, j, c) - b[c];
      const bool has_lower = j > 0 || lo;
      const Block4 lower = has_lower ? load_block(low, j, i) : scaled_identity(0);
      prev = forward_step(load_block(dinv, j, i), b, has_lower ? &lower : nullptr, prev);
      for (int c = 0; c < 4; ++c) g(i, j, c) = prev[c];
    }
    if (hi)
      for (int c = 0; c < 4; ++c) out(k, c) = prev[c];
  }

  KOKKOS_INLINE_FUNCTION void back(long k) const {
    const long i = first + stride * k;
    State next{{0, 0, 0, 0}};
    if (hi)
      for (int c = 0; c < 4; ++c) next[c] = in(k, c);
    for (long j = nl - 1; j >= 0; --j) {
      State gj;
      for (int c = 0; c < 4; ++c) gj[c] = g(i, j, c);
      next = back_step(gj, load_block(gn, j, i), next);
      for (int c = 0; c < 4; ++c) du(i, j + 1, c) = next[c];
    }
    if (lo)
      for (int c = 0; c < 4; ++c) out(k, c) = next[c];
  }

  // Σ over the i-neighbours of ½ΔF_n·S_cn − (ω½λ_f + λ_v,f)ΔU_n (LU-SGS's terms), ΔF_n =
  // F(U_n + ΔU_n) − F(U_n); an open end of a rectangle is explicit.
  KOKKOS_INLINE_FUNCTION void i_neighbours(long j, long i, State& sum) const {
    for (int c = 0; c < 4; ++c) sum[c] = 0;
    for (int n = 0; n < 2; ++n) {
      double sx, sy, coef;
      long in_;
      if (n == 0) {
        if (!periodic && i == 0) continue;
        in_ = wrap(i - 1, ni);
        sx = -faces(i, j, 0), sy = -faces(i, j, 1), coef = faces(i, j, 2);
      } else {
        if (!periodic && i == ni - 1) continue;
        in_ = wrap(i + 1, ni);
        sx = faces(i + 1, j, 0), sy = faces(i + 1, j, 1), coef = faces(i + 1, j, 2);
      }
      State un, up, dn;
      bool zero = true;
      for (int c = 0; c < 4; ++c) {
        un[c] = u(in_, j, c), dn[c] = du(in_, j + 1, c), up[c] = un[c] + dn[c];
        zero = zero && dn[c] == 0;
      }
      if (zero) continue;  // not yet swept: exactly no contribution
      const State f1 = conservative_flux(up, sx, sy), f0 = conservative_flux(un, sx, sy);
      for (int c = 0; c < 4; ++c) sum[c] += 0.5 * (f1[c] - f0[c]) - coef * dn[c];
    }
  }

  // Lines cut at the rank's edge (not exact_across_ranks): the j-neighbour row jn on the other
  // rank, across face jf, enters the right-hand side with its ΔU of the last pass (du's ghost
  // row), by the block the whole line would have had for it.
  KOKKOS_INLINE_FUNCTION void cut_neighbour(long jf, long i, long jn, State& sum) const {
    const double sign = jn < jf ? -1 : 1;
    const Block4 block = neighbour_block(prim(jn, i), sign * geometry.sxj(jf, i),
                                         sign * geometry.syj(jf, i), face_dissipation(jf, i));
    State d;
    for (int c = 0; c < 4; ++c) d[c] = du(i, jn + 1, c);
    const State bd = product(block, d);
    for (int c = 0; c < 4; ++c) sum[c] += bd[c];
  }

  template <class Tag>
  void run(LineImplicitSmoother::Lines lines, const char* label) {
    first = lines.first, stride = lines.stride, count = lines.count;
    Kokkos::parallel_for(label, Kokkos::RangePolicy<Tag>(0, std::is_same_v<Tag, Sweep> ? 1 : count),
                         *this);
  }

  Array3 u, w, du, g, res, faces;
  SlabGeometry geometry;
  Array2 lam_i, lam_j, lv_i, lv_j;
  BlockArray dinv, low, gn;
  Array2 in, out;
  long ni, nl, wall_begin;
  bool periodic;
  double omega, inv_cfl;
  bool lo, hi, cut_lo, cut_hi, wall, viscous, roe;
  double entropy_fix, linear_fix;
  long first = 0, stride = 1, count = 0;
};

}  // namespace

LineImplicitSmoother::LineImplicitSmoother(const FlowLevel& level) {
  const auto& options = level.parameters.smoother_options;
  if (const auto r = options.find("refactor_every"); r != options.end())
    refactor_every_ = static_cast<long>(r->second);
  if (const auto s = options.find("sweeps"); s != options.end())
    sweeps_ = static_cast<int>(s->second);
  // Roe's matrix by default on inviscid flow only: with no-slip walls it needs the mirrored
  // coarse-grid correction (solver.multigrid_wall) and even then stalls on the laminar case at
  // Re 5000 (docs/validation/airfoil.md, "Line-implicit smoothing").
  roe_ = !level.viscous;
  if (const auto r = options.find("roe"); r != options.end() && r->second >= 0)
    roe_ = r->second != 0;
  if (const auto f = options.find("roe_linear_fix"); f != options.end())
    roe_linear_fix_ = f->second;
  if (const auto e = options.find("exact_across_ranks"); e != options.end())
    exact_across_ranks_ = e->second != 0;
  const long nl = level.rows(), ni = level.ni();
  operands_.u = Array3("LineImplicitSmoother::u", ni, nl, 4);
  operands_.res = Array3("LineImplicitSmoother::res", ni, nl, 4);
  operands_.faces = Array3("LineImplicitSmoother::faces", ni + 1, nl, 3);
  operands_.du = Array3("LineImplicitSmoother::du", ni, nl + 2, 4);
  edge_rows_ = Array3("LineImplicitSmoother::edge_rows", 4, 4, ni);
  du_ghosts_ = GhostRows(level.slab, 1);
  g_ = Array3("LineImplicitSmoother::g", ni, nl, 4);
  d_inverse_ = BlockArray("LineImplicitSmoother::d_inverse", ni, nl, 16);
  lower_ = BlockArray("LineImplicitSmoother::lower", ni, nl, 16);
  gain_ = BlockArray("LineImplicitSmoother::gain", ni, nl, 16);
  edge_send_ = Array2("LineImplicitSmoother::edge_send", ni, 16);
  edge_receive_ = Array2("LineImplicitSmoother::edge_receive", ni, 16);
  edge_host_ = Kokkos::create_mirror_view(edge_send_);
}

void LineImplicitSmoother::send(const FlowLevel& level, long count, int destination, int tag) {
  // Whole rows of 16 travel (g and x fill 4 of them): one contiguous block.
  Kokkos::deep_copy(Kokkos::subview(edge_host_, Rows(0, count), Kokkos::ALL),
                    Kokkos::subview(edge_send_, Rows(0, count), Kokkos::ALL));
  MPI_Send(edge_host_.data(), static_cast<int>(16 * count), MPI_DOUBLE, destination, tag,
           level.slab.comm());
}

void LineImplicitSmoother::receive(const FlowLevel& level, long count, int source, int tag) {
  MPI_Recv(edge_host_.data(), static_cast<int>(16 * count), MPI_DOUBLE, source, tag,
           level.slab.comm(), MPI_STATUS_IGNORE);
  Kokkos::deep_copy(Kokkos::subview(edge_receive_, Rows(0, count), Kokkos::ALL),
                    Kokkos::subview(edge_host_, Rows(0, count), Kokkos::ALL));
}

void LineImplicitSmoother::factorize(const FlowLevel& level, double cfl) {
  const int rank = level.slab.rank(), ranks = level.slab.ranks();
  const long ni = level.ni();
  LineKernels kernels(level, operands_, g_, d_inverse_, lower_, gain_, edge_receive_, edge_send_,
                      cfl, roe_, roe_linear_fix_, exact_across_ranks_);
  const bool exchange = exact_across_ranks_;
  if (exchange && rank > 0) receive(level, ni, rank - 1, kLineTagGain);
  kernels.run<LineKernels::Eliminate>({0, 1, ni}, "LineImplicitSmoother::eliminate");
  if (exchange && rank < ranks - 1) send(level, ni, rank + 1, kLineTagGain);
}

void LineImplicitSmoother::solve(const FlowLevel& level, Lines lines) {
  const int rank = level.slab.rank(), ranks = level.slab.ranks();
  LineKernels kernels(level, operands_, g_, d_inverse_, lower_, gain_, edge_receive_, edge_send_,
                      1.0, roe_, roe_linear_fix_, exact_across_ranks_);
  const bool exchange = exact_across_ranks_;
  if (exchange && rank > 0) receive(level, lines.count, rank - 1, kLineTagForward);
  kernels.run<LineKernels::Forward>(lines, "LineImplicitSmoother::forward");
  if (exchange && rank < ranks - 1) {
    send(level, lines.count, rank + 1, kLineTagForward);
    receive(level, lines.count, rank + 1, kLineTagBack);
  }
  kernels.run<LineKernels::Back>(lines, "LineImplicitSmoother::back");
  if (exchange && rank > 0) send(level, lines.count, rank - 1, kLineTagBack);
}

void LineImplicitSmoother::gather(const FlowLevel& level) {
  const long ni = level.ni(), nl = level.rows();
  const Array3 u = level.u, res = level.res, u_lines = operands_.u, res_lines = operands_.res,
               faces = operands_.faces;
  const Array2 sx = level.geometry.sxi, sy = level.geometry.syi, lam = level.lambda_i,
               lv = level.lambda_viscous_i;
  const double omega = level.parameters.lusgs_omega;
  const bool periodic = level.periodic;
  Kokkos::parallel_for(
      "LineImplicitSmoother::gather", Range2({0, 0}, {nl, ni + 1}), KOKKOS_LAMBDA(long j, long i) {
        // Face ni of an O-grid is face 0: its ½λ and λ_v are stored there.
        const long f = periodic ? wrap(i, ni) : i;
        faces(i, j, 0) = sx(j, i), faces(i, j, 1) = sy(j, i);
        faces(i, j, 2) = omega * lam(j, f) + lv(j, f);
        if (i == ni) return;
        for (int k = 0; k < 4; ++k)
          u_lines(i, j, k) = u(k, j, i), res_lines(i, j, k) = res(k, j, i);
      });
  Kokkos::deep_copy(operands_.du, 0.0);
}

void LineImplicitSmoother::update(FlowLevel& level) const {
  const Array3 u = level.u, du = operands_.du;
  const double r = level.parameters.max_update;
  Kokkos::parallel_for(
      "LineImplicitSmoother::update", Range2({0, 0}, {level.rows(), level.ni()}),
      KOKKOS_LAMBDA(long j, long i) {
        const State c{{u(0, j, i), u(1, j, i), u(2, j, i), u(3, j, i)}};
        const State d{{du(i, j + 1, 0), du(i, j + 1, 1), du(i, j + 1, 2), du(i, j + 1, 3)}};
        const double theta = update_fraction(c, d, r);
        for (int k = 0; k < 4; ++k) u(k, j, i) = c[k] + theta * d[k];
      });
}

void LineImplicitSmoother::exchange_edges(const FlowLevel& level) {
  // edge_rows_: rows 1 and 2 this rank's first and last row of ΔU, rows 0 and 3 the
  // neighbours' (GhostRows with one ghost row each end of two rows).
  const long nl = level.rows();
  const Array3 du = operands_.du, edges = edge_rows_;
  Kokkos::parallel_for(
      "LineImplicitSmoother::edge_rows", Range1(0, level.ni()), KOKKOS_LAMBDA(long i) {
        for (int k = 0; k < 4; ++k) edges(k, 1, i) = du(i, 1, k), edges(k, 2, i) = du(i, nl, k);
      });
  du_ghosts_.exchange(edge_rows_);
  Kokkos::parallel_for(
      "LineImplicitSmoother::ghost_rows", Range1(0, level.ni()), KOKKOS_LAMBDA(long i) {
        for (int k = 0; k < 4; ++k) du(i, 0, k) = edges(k, 0, i), du(i, nl + 1, k) = edges(k, 3, i);
      });
}

void LineImplicitSmoother::smooth(FlowLevel& level, double cfl, long iteration) {
  ScopedPhase phase(level.phase_seconds, "line_implicit");
  gather(level);
  // The factors are the costly part (0.6 of the smoother's time): refactored on cycles that are
  // multiples of `refactor_every` and when the CFL changes, else kept (a lagged Jacobian; the
  // right-hand side is always current). Tied to the cycle, not to the calls, so that a W-cycle's
  // second visit to a level reuses the factors of its first; checkpoints carry the lagged
  // factors (save/load), so a restart between refactorisations continues bit for bit.
  const bool due = iteration % refactor_every_ == 0 && iteration != factored_iteration_;
  if (factored_iteration_ < 0 || due || cfl != factored_cfl_) refactor(level, cfl, iteration);
  sweep(level);
  // Lagged factors of a state the start-up transient has since left far behind can give a
  // non-finite ΔU (α = 15° RANS, docs/validation/rans.md): refactor at the current state and
  // solve again. A finite ΔU takes no extra work, so converging runs are unchanged bit for bit.
  if (factored_iteration_ != iteration && !finite_update(level)) {
    spdlog::debug(
        "line-implicit smoother: a non-finite ΔU at cycle {} with the factors of cycle "
        "{}; refactored",
        iteration, factored_iteration_);
    gather(level);
    refactor(level, cfl, iteration);
    sweep(level);
  }
  update(level);
}

void LineImplicitSmoother::refactor(const FlowLevel& level, double cfl, long iteration) {
  factorize(level, cfl);
  factored_cfl_ = cfl;
  factored_iteration_ = iteration;
}

void LineImplicitSmoother::sweep(FlowLevel& level) {
  const long ni = level.ni();
  // Cut lines: the other rank's edge ΔU, in ΔU's ghost rows, is that of the pass before (zero
  // before the first).
  const bool cut = !exact_across_ranks_ && level.slab.ranks() > 1;
  if (exact_across_ranks_ && level.slab.ranks() > 1) {
    // Whole lines across the ranks: the pieces of each line exchange between its passes.
    for (int sweep = 0; sweep < sweeps_; ++sweep) {
      for (long i = 0; i < ni; ++i) solve(level, {i, 1, 1});
      for (long i = ni - 1; i >= 0; --i) solve(level, {i, 1, 1});
    }
    return;
  }
  LineKernels kernels(level, operands_, g_, d_inverse_, lower_, gain_, edge_receive_, edge_send_,
                      1.0, roe_, roe_linear_fix_, exact_across_ranks_);
  for (int sweep = 0; sweep < sweeps_; ++sweep) {
    kernels.run<LineKernels::Sweep>({0, 1, ni}, "LineImplicitSmoother::sweep_up");
    if (cut) exchange_edges(level);
    kernels.run<LineKernels::Sweep>({ni - 1, -1, ni}, "LineImplicitSmoother::sweep_down");
    if (cut && sweep + 1 < sweeps_) exchange_edges(level);
  }
}

// Collective: whether ΔU is finite in every cell of every rank.
bool LineImplicitSmoother::finite_update(const FlowLevel& level) const {
  const Array3 du = operands_.du;
  long bad = 0;
  Kokkos::parallel_reduce(
      "LineImplicitSmoother::finite_update", Range2({0, 0}, {level.rows(), level.ni()}),
      KOKKOS_LAMBDA(long j, long i, long& count) {
        const double sum = du(i, j + 1, 0) + du(i, j + 1, 1) + du(i, j + 1, 2) + du(i, j + 1, 3);
        if (!(sum - sum == 0)) ++count;
      },
      bad);
  if (level.slab.ranks() > 1)
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG, MPI_SUM, level.slab.comm());
  return bad == 0;
}

void LineImplicitSmoother::save(io::Hdf5Checkpoint& checkpoint, const std::string& prefix) const {
  if (factored_iteration_ < 0) return;
  checkpoint.scalars[prefix + "factored_iteration"] = static_cast<double>(factored_iteration_);
  checkpoint.scalars[prefix + "factored_cfl"] = factored_cfl_;
  const std::pair<const char*, const BlockArray*> blocks[] = {
      {"d_inverse", &d_inverse_}, {"lower", &lower_}, {"gain", &gain_}};
  for (const auto& [name, view] : blocks) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), *view);
    io::HostArray a("LineImplicitSmoother::saved", view->extent(0) * view->extent(1), 16);
    std::copy(host.data(), host.data() + host.size(), a.data());
    checkpoint.arrays.push_back({prefix + name, a});
  }
}

void LineImplicitSmoother::load(const io::Hdf5Checkpoint& checkpoint, const std::string& prefix) {
  factored_iteration_ = -1;  // refactor at the first cycle unless the saved factors fit
  const double iteration = checkpoint.scalar_or(prefix + "factored_iteration", -1);
  if (iteration < 0) return;
  const std::pair<const char*, BlockArray*> blocks[] = {
      {"d_inverse", &d_inverse_}, {"lower", &lower_}, {"gain", &gain_}};
  for (const auto& [name, view] : blocks) {
    const io::NamedArray* a = checkpoint.find_array(prefix + name);
    if (!a || a->values.size() != view->size()) return;  // another slab or grid
  }
  for (const auto& [name, view] : blocks) {
    const io::NamedArray* a = checkpoint.find_array(prefix + name);
    auto host = Kokkos::create_mirror_view(*view);
    std::copy(a->values.data(), a->values.data() + a->values.size(), host.data());
    Kokkos::deep_copy(*view, host);
  }
  factored_iteration_ = static_cast<long>(iteration);
  factored_cfl_ = checkpoint.scalar(prefix + "factored_cfl");
}

}  // namespace surrox::solvers::airfoil
