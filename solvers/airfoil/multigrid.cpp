#include "solvers/airfoil/multigrid.hpp"

#include "solvers/airfoil/residual.hpp"
#include "solvers/airfoil/update_limiter.hpp"
#include "solvers/scoped_phase.hpp"

namespace surrox::solvers::airfoil {
namespace {

// The wall ghost's correction from the cell's δU: momentum reversed (no-slip) or its normal part
// reflected (slip, wall normal (sx, sy)), as wall_ghost_state() does to the state.
KOKKOS_INLINE_FUNCTION void mirror_correction(State& d, double sx, double sy, bool no_slip) {
  if (no_slip) {
    d[1] = -d[1], d[2] = -d[2];
    return;
  }
  const double s2 = sx * sx + sy * sy, dn = (d[1] * sx + d[2] * sy) / s2;
  d[1] -= 2 * dn * sx, d[2] -= 2 * dn * sy;
}

}  // namespace

void add_coarse_levels(std::vector<FlowLevel>& levels, const mesh::CurvilinearGrid& grid,
                       int count) {
  mesh::CurvilinearGrid fine_grid = grid;
  for (int n = 0; n < count; ++n) {
    const FlowLevel& fine = levels.back();
    const long nci = fine.ni() / 2, ncj = fine.slab.nj() / 2;
    mesh::CurvilinearGrid coarse_grid;
    coarse_grid.topology = fine_grid.topology;
    coarse_grid.wall_begin = fine_grid.wall_begin / 2;  // the case's grid keeps it even
    coarse_grid.x = HostMatrix("Multigrid::coarse_x", nci + 1, ncj + 1);
    coarse_grid.y = HostMatrix("Multigrid::coarse_y", nci + 1, ncj + 1);
    for (long i = 0; i <= nci; ++i)
      for (long j = 0; j <= ncj; ++j)
        coarse_grid.x(i, j) = fine_grid.x(2 * i, 2 * j),
                         coarse_grid.y(i, j) = fine_grid.y(2 * i, 2 * j);
    AirfoilParameters p = fine.parameters;
    p.limiter = Limiter::kFirstOrder;
    levels.emplace_back(p, coarse_grid, fine.slab.coarsened());
    FlowLevel& coarse = levels.back();
    const long ncl = coarse.rows();
    coarse.forcing = Array3("Multigrid::forcing", 4, ncl, nci);
    coarse.u_start = Array3("Multigrid::u_start", 4, ncl, nci);
    coarse.correction = Array3("Multigrid::correction", 4, ncl + 2, nci);
    coarse.correction_ghosts = GhostRows(coarse.slab, 1);
    fine_grid = coarse_grid;
  }
}

void coarse_grid_correction(std::vector<FlowLevel>& levels, std::size_t l, double cfl,
                            long iteration, double residual) {
  if (l + 1 >= levels.size()) return;
  FlowLevel& f = levels[l];
  evaluate_residual(f);  // R_f at the smoothed state
  FlowLevel& c = levels[l + 1];
  const long nci = c.ni(), ncl = c.rows(), ncj = c.slab.nj(), cj0 = c.slab.first_row(), ci = 2;
  const bool periodic = f.periodic;
  {
    ScopedPhase phase(f.phase_seconds, "multigrid");
    const Array3 uf = f.u, rf = f.res, uc = c.u, u0 = c.u_start, pc = c.forcing;
    const Array2 area = f.geometry.area;
    Kokkos::parallel_for(
        "Multigrid::restrict", Range2({0, 0}, {ncl, nci}), KOKKOS_LAMBDA(long jc, long ic) {
          double v = 0, su[4] = {0, 0, 0, 0}, sr[4] = {0, 0, 0, 0};
          for (long b = 0; b < 2; ++b)
            for (long a = 0; a < ci; ++a) {
              const long i = ci * ic + a, j = 2 * jc + b;
              v += area(j, i);
              for (int k = 0; k < 4; ++k) su[k] += area(j, i) * uf(k, j, i), sr[k] += rf(k, j, i);
            }
          for (int k = 0; k < 4; ++k) {
            uc(k, jc, ic) = u0(k, jc, ic) = su[k] / v;
            pc(k, jc, ic) = sr[k];  // completed below: P = Σ R_f − R_c(U_c⁰)
          }
        });
  }
  if (f.turbulent) {
    // RANS: the coarse level's eddy viscosity comes from the fine ν̃, restricted and frozen.
    ScopedPhase phase(f.phase_seconds, "multigrid");
    const Array3 ntf = f.nu_tilde, ntc = c.nu_tilde;
    const Array2 area = f.geometry.area;
    Kokkos::parallel_for(
        "Multigrid::restrict_nu_tilde", Range2({0, 0}, {ncl, nci}),
        KOKKOS_LAMBDA(long jc, long ic) {
          double v = 0, s = 0;
          for (long b = 0; b < 2; ++b)
            for (long a = 0; a < ci; ++a) {
              const long i = ci * ic + a, j = 2 * jc + b;
              v += area(j, i);
              s += area(j, i) * ntf(0, j + 2, i);
            }
          ntc(0, jc + 2, ic) = s / v;
        });
  }
  {
    // All the work on the coarser levels, which keep their own phase clocks.
    ScopedPhase phase(f.phase_seconds, "multigrid_coarse");
    c.update_primitives();
    c.circulation = f.circulation;
    evaluate_residual(c, false);  // R_c(U_c⁰)
    const Array3 pc = c.forcing, rc = c.res;
    Kokkos::parallel_for(
        "Multigrid::forcing", Range2({0, 0}, {ncl, nci}), KOKKOS_LAMBDA(long jc, long ic) {
          for (int k = 0; k < 4; ++k) {
            const double sum_fine = pc(k, jc, ic);
            pc(k, jc, ic) = sum_fine - rc(k, jc, ic);
            rc(k, jc, ic) = sum_fine;  // R_c(U_c⁰) + P
          }
        });
    c.smooth(cfl, iteration, residual);
    coarse_grid_correction(levels, l + 1, cfl, iteration, residual);
    // A W-cycle (gamma 2): the coarse level's smoothing and correction again, from its residual
    // at the corrected state (the forcing P stays); the coarsest level has nothing to repeat.
    for (long g = 1; g < c.parameters.multigrid_gamma && l + 2 < levels.size(); ++g) {
      evaluate_residual(c);
      c.smooth(cfl, iteration, residual);
      coarse_grid_correction(levels, l + 1, cfl, iteration, residual);
    }
  }
  {
    ScopedPhase phase(f.phase_seconds, "multigrid");
    const Array3 uc = c.u, u0 = c.u_start, dc = c.correction;
    Kokkos::parallel_for(
        "Multigrid::correction", Range2({0, 0}, {ncl, nci}), KOKKOS_LAMBDA(long jc, long ic) {
          for (int k = 0; k < 4; ++k) dc(k, jc + 1, ic) = uc(k, jc, ic) - u0(k, jc, ic);
        });
  }
  {
    ScopedPhase phase(f.phase_seconds, "halo");
    c.correction_ghosts.exchange(c.correction);
  }
  {
    ScopedPhase phase(f.phase_seconds, "multigrid");
    const Array3 uf = f.u, dc = c.correction;
    // At a wall the ghost's correction is the cell's mirrored like the ghost state (momentum
    // reversed at a no-slip wall, its normal part reflected at a slip wall), so the wall row
    // gets the profile through the wall value; one-sided, it got the whole first coarse cell's
    // correction: twice the no-slip momentum correction, an overshoot of the wall row's
    // velocity that diverges with a consistent coarse smoother (docs/validation/airfoil.md).
    const bool mirror = c.parameters.inner == InnerBoundary::kWall &&
                        c.parameters.multigrid_wall == MultigridWall::kMirror;
    const bool viscous = c.viscous;
    const long wall_begin = c.wall_begin;
    const double max_update = f.parameters.max_update;
    const Array2 csx = c.geometry.sxj, csy = c.geometry.syj;
    // Slab rows start at an even global row, so local and global parities agree.
    Kokkos::parallel_for(
        "Multigrid::prolong", Range2({0, 0}, {f.rows(), f.ni()}), KOKKOS_LAMBDA(long j, long i) {
          const long ic = i / 2, jc = j / 2;
          long in = ic + (i % 2 == 0 ? -1 : 1);
          in = periodic ? wrap(in, nci) : (in < 0 || in >= nci ? ic : in);  // open ends: one-sided
          long jn = jc + (j % 2 == 0 ? -1 : 1);
          const bool at_wall = mirror && cj0 + jn < 0;
          if (cj0 + jn < 0 || cj0 + jn >= ncj) jn = jc;  // wall and far field: one-sided
          State below = {
              {dc(0, jn + 1, ic), dc(1, jn + 1, ic), dc(2, jn + 1, ic), dc(3, jn + 1, ic)}};
          State below_n = {
              {dc(0, jn + 1, in), dc(1, jn + 1, in), dc(2, jn + 1, in), dc(3, jn + 1, in)}};
          if (at_wall) {
            mirror_correction(below, csx(0, ic), csy(0, ic), viscous && ic >= wall_begin);
            mirror_correction(below_n, csx(0, in), csy(0, in), viscous && in >= wall_begin);
          }
          State current, d, next;
          for (int k = 0; k < 4; ++k) {
            d[k] = 9.0 / 16 * dc(k, jc + 1, ic) + 3.0 / 16 * dc(k, jc + 1, in) +
                   3.0 / 16 * below[k] + 1.0 / 16 * below_n[k];
            current[k] = uf(k, j, i);
          }
          const double theta = update_fraction(current, d, max_update);
          for (int k = 0; k < 4; ++k) next[k] = current[k] + theta * d[k];
          const State w = to_primitive(next);
          if (w[0] > 0 && w[3] > 0)
            for (int k = 0; k < 4; ++k) uf(k, j, i) = next[k];
        });
  }
  f.update_primitives();
  f.check_state(iteration, residual);
}

}  // namespace surrox::solvers::airfoil
