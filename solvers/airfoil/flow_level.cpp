#include "solvers/airfoil/flow_level.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/error.hpp"
#include "solvers/airfoil/boundary_conditions.hpp"
#include "solvers/scoped_phase.hpp"

namespace surrox::solvers::airfoil {

FlowLevel::FlowLevel(const AirfoilParameters& p, const mesh::CurvilinearGrid& grid, Slab s)
    : parameters(p), slab(std::move(s)) {
  AirfoilParameters& q = parameters;
  if (!(q.mach > 0 && q.mach <= 0.9))
    throw InputError(fmt::format("airfoil solver: Mach number {} outside (0, 0.9]", q.mach));
  viscous = q.equations == Equations::kNavierStokes || q.equations == Equations::kRans;
  turbulent = q.equations == Equations::kRans;
  if (q.linear_fix < 0) q.linear_fix = viscous ? 0.0 : 0.2;
  if (viscous && !(q.reynolds > 0))
    throw InputError("airfoil solver: navier_stokes and rans need a Reynolds number > 0");
  if (turbulent && !(q.nu_tilde_ratio > 0 && q.freestream_temperature > 0))
    throw InputError("airfoil solver: rans needs a far-field ν̃ ratio > 0 and T∞ > 0");
  // The model's destruction term needs the distance to a no-slip wall; an annulus with a far
  // field inside (inner = kFarField) has none.
  if (turbulent && q.inner != InnerBoundary::kWall)
    throw InputError(
        "airfoil solver: rans needs a no-slip wall for the Spalart–Allmaras wall distance; this "
        "grid's inner boundary is a far field");
  periodic = grid.topology == mesh::GridTopology::kOGrid;
  wall_begin = grid.wall_begin;
  if (!(q.cfl > 0) || q.max_iterations < 1 || !(q.residual_drop > 0 && q.residual_drop < 1))
    throw InputError("airfoil solver: cfl, max_iterations and residual_drop must be positive");
  if (grid.cells_i() < 8 || grid.cells_j() < 4)
    throw InputError(fmt::format("airfoil grid too small: {} × {} cells (need ≥ 8 × 4)",
                                 grid.cells_i(), grid.cells_j()));
  alpha = q.alpha_deg * M_PI / 180;
  p_inf = 1 / (kGamma * q.mach * q.mach);
  const mesh::GridMetrics metrics = mesh::compute_metrics(grid);  // InputError on folded cells
  geometry = SlabGeometry(metrics, grid, slab);
  // A flat plate's Reynolds number is per unit length: the reference length is 1.
  chord_line = periodic ? chord_line_of(grid) : ChordLine{};
  grid_x = grid.x;
  grid_y = grid.y;
  cell_area = metrics.area;
  cell_wall_distance = metrics.wall_distance;
  mu = viscous ? chord_line.chord / q.reynolds : 0.0;
  if (turbulent) {
    nu_tilde_inf = q.nu_tilde_ratio * mu;  // ρ∞ = 1: ν∞ = μ∞
    sutherland_ratio = sa::kSutherlandKelvin / q.freestream_temperature;
  }

  const long nl = rows(), n = ni();
  u = Array3("FlowLevel::u", 4, nl, n);
  w = Array3("FlowLevel::w", 4, nl + 4, n);
  res = Array3("FlowLevel::residual", 4, nl, n);
  flux_i = Array3("FlowLevel::flux_i", 4, nl, n + 1);
  flux_j = Array3("FlowLevel::flux_j", 4, nl + 1, n);
  lambda_i = Array2("FlowLevel::lambda_i", nl, n + 1);
  lambda_j = Array2("FlowLevel::lambda_j", nl + 1, n);
  lambda_viscous_i = Array2("FlowLevel::lambda_viscous_i", nl, n + 1);
  lambda_viscous_j = Array2("FlowLevel::lambda_viscous_j", nl + 1, n);
  node_u = Array2("FlowLevel::node_u", nl + 1, n + 1);
  node_v = Array2("FlowLevel::node_v", nl + 1, n + 1);
  node_theta = Array2("FlowLevel::node_theta", nl + 1, n + 1);
  wall_viscous_x = Array2("FlowLevel::wall_viscous_x", 1, n);
  wall_viscous_y = Array2("FlowLevel::wall_viscous_y", 1, n);
  w_ghosts = GhostRows(slab, 2);
  if (turbulent) {
    nu_tilde = Array3("FlowLevel::nu_tilde", 1, nl + 4, n);
    nu_ghosts = GhostRows(slab, 2, 1);
  }
  smoother = smoother_registry().create(q.smoother, *this);
}

void FlowLevel::set_freestream() {
  const State wf = freestream_at(0, 0, 0, 0, alpha, parameters.mach, p_inf, 0);
  const State uf = to_conservative(wf);
  const Array3 conservative = u;
  Kokkos::parallel_for(
      "FlowLevel::set_freestream", Range2({0, 0}, {rows(), ni()}), KOKKOS_LAMBDA(long j, long i) {
        for (int k = 0; k < 4; ++k) conservative(k, j, i) = uf[k];
      });
  if (turbulent) Kokkos::deep_copy(nu_tilde, nu_tilde_inf);
  update_primitives();
}

void FlowLevel::update_primitives() {
  const Array3 conservative = u, primitive = w;
  Kokkos::parallel_for(
      "FlowLevel::update_primitives", Range2({0, 0}, {rows(), ni()}),
      KOKKOS_LAMBDA(long j, long i) {
        const State c{{conservative(0, j, i), conservative(1, j, i), conservative(2, j, i),
                       conservative(3, j, i)}};
        const State p = to_primitive(c);
        for (int k = 0; k < 4; ++k) primitive(k, j + 2, i) = p[k];
      });
}

void FlowLevel::smooth(double cfl, long iteration, double residual) {
  smoother->smooth(*this, cfl, iteration);
  ScopedPhase phase(phase_seconds, "update");
  update_primitives();
  check_state(iteration, residual);
}

// Collective: min(ρ, p/p∞) over the cells of all ranks; −∞ when a value is not finite.
double FlowLevel::worst_state() const {
  const Array3 primitive = w;
  const double p_ref = p_inf;
  const long nl = rows(), n = ni();
  double worst = 0;
  Kokkos::parallel_reduce(
      "FlowLevel::check_state", Range2({0, 0}, {nl, n}),
      KOKKOS_LAMBDA(long j, long i, double& m) {
        const double rho = primitive(0, j + 2, i), p = primitive(3, j + 2, i) / p_ref;
        double v = fmin(rho, p);
        const double sum = rho + primitive(1, j + 2, i) + primitive(2, j + 2, i) + p;
        if (!(sum - sum == 0)) v = -INFINITY;  // NaN or ±inf
        if (v < m) m = v;
      },
      Kokkos::Min<double>(worst));
  if (slab.ranks() > 1) MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MIN, slab.comm());
  return worst;
}

// Collective: the minimum over all ranks decides, and on failure the worst cell of all ranks is
// named by every rank, so all throw the same Error together.
void FlowLevel::check_state(long iteration, double residual) const {
  if (worst_state() > 0) return;
  const long nl = rows(), n = ni();
  // Find and name the worst cell on the host (only on failure).
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), w);
  auto xc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), geometry.xc);
  auto yc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), geometry.yc);
  long wi = 0, wj = 0;
  double wv = INFINITY;
  // How many cells are bad: a NaN spreads through the implicit sweeps within a cycle, so once
  // it is in every cell the "worst" one is the first in storage order, not the origin.
  double bad[2] = {0, static_cast<double>(nl * n)};  // bad cells, cells
  for (long j = 0; j < nl; ++j)
    for (long i = 0; i < n; ++i) {
      double v = std::min(h(0, j + 2, i), h(3, j + 2, i) / p_inf);
      if (!std::isfinite(h(0, j + 2, i) + h(1, j + 2, i) + h(2, j + 2, i) + h(3, j + 2, i)))
        v = -INFINITY;
      if (!(v > 0)) bad[0] += 1;
      if (v < wv) wv = v, wi = i, wj = j;
    }
  if (slab.ranks() > 1) MPI_Allreduce(MPI_IN_PLACE, bad, 2, MPI_DOUBLE, MPI_SUM, slab.comm());
  // The cell: i, global j, x, y, ρ, u, v, p/p∞, from the rank that holds the worst one.
  double cell[8] = {static_cast<double>(wi), static_cast<double>(slab.first_row() + wj),
                    xc(wj + 1, wi),          yc(wj + 1, wi),
                    h(0, wj + 2, wi),        h(1, wj + 2, wi),
                    h(2, wj + 2, wi),        h(3, wj + 2, wi) / p_inf};
  if (slab.ranks() > 1) {
    struct {
      double value;
      int rank;
    } mine{wv, slab.rank()}, owner{0, 0};
    MPI_Allreduce(&mine, &owner, 1, MPI_DOUBLE_INT, MPI_MINLOC, slab.comm());
    MPI_Bcast(cell, 8, MPI_DOUBLE, owner.rank, slab.comm());
  }
  throw Error(fmt::format(
      "the airfoil solver diverged at iteration {}: cell (i = {}, j = {}) at x = {:.4g}, y = "
      "{:.4g} has ρ = {:.4g}, u = {:.4g}, v = {:.4g}, p/p∞ = {:.4g} ({} of {} cells with ρ or p "
      "not positive and finite; density residual {:.3e} of the first); reduce solver.cfl, raise "
      "solver.cfl_ramp or use limiter minmod",
      iteration, static_cast<long>(cell[0]), static_cast<long>(cell[1]), cell[2], cell[3], cell[4],
      cell[5], cell[6], cell[7], static_cast<long>(bad[0]), static_cast<long>(bad[1]), residual));
}

}  // namespace surrox::solvers::airfoil
