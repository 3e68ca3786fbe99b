#include "solvers/rayleigh_benard/pressure_projection.hpp"

#include <utility>

namespace surrox::solvers::rayleigh_benard {

template <int dim>
PressureProjection<dim>::PressureProjection(const DmdaGrid& grid, Metric dz, Metric dzc, double hx,
                                            double hy, double h_min,
                                            std::unique_ptr<PoissonSolver> poisson,
                                            double divergence_tolerance)
    : grid_(grid),
      dz_(std::move(dz)),
      dzc_(std::move(dzc)),
      hx_(hx),
      hy_(hy),
      area_(hx * hy * h_min),
      poisson_(std::move(poisson)),
      divergence_tolerance_(divergence_tolerance),
      outflow_(grid.owned_field("PressureProjection::outflow")),
      phi_(grid.ghosted_field("PressureProjection::phi")) {}

template <int dim>
PoissonReport PressureProjection<dim>::solve(const MacVelocity& velocity, int slot, double rate) {
  // Right-hand side −(∇·u*) integrated over the cell: minus its net outflow.
  const Field3 u = velocity.u, v = velocity.v, w = velocity.w, outflow = outflow_;
  const Metric dz = dz_;
  const double hx = hx_, hy = hy_;
  const long ox = grid_.offset(DmdaGrid::kX), oy = grid_.offset(DmdaGrid::kY);
  const long oz = grid_.offset(DmdaGrid::kZ);
  for_each_cell<dim>(
      "PressureProjection::divergence", grid_.owned_from_zero(),
      KOKKOS_LAMBDA(long kk, long jj, long ii) {
        const long k = kk + oz, j = jj + oy, i = ii + ox;
        double out = (u(k, j, i + 1) - u(k, j, i)) * (hy * dz(k));
        if constexpr (dim == 3) out += (v(k, j + 1, i) - v(k, j, i)) * (hx * dz(k));
        out += (w(k + 1, j, i) - w(k, j, i)) * (hx * hy);
        outflow(kk, jj, ii) = -out;
      });
  // ‖r‖₂ ≥ max|r| ≥ hx hy min(dz) max|∇·u|, and rate ≥ U/h.
  return poisson_->solve(outflow_, phi_, slot, divergence_tolerance_ * rate * area_);
}

template <int dim>
void PressureProjection<dim>::correct(const MacVelocity& velocity, const Field3& p,
                                      double to_pressure) const {
  const Field3 u = velocity.u, v = velocity.v, w = velocity.w, phi = phi_;
  const Metric dzc = dzc_;
  const double ihx = 1 / hx_, ihy = 1 / hy_;
  const long zs = grid_.start(DmdaGrid::kZ), oz = grid_.offset(DmdaGrid::kZ);
  for_each_cell<dim>(
      "PressureProjection::correct", grid_.owned_box(), KOKKOS_LAMBDA(long k, long j, long i) {
        u(k, j, i) -= (phi(k, j, i) - phi(k, j, i - 1)) * ihx;
        if constexpr (dim == 3) v(k, j, i) -= (phi(k, j, i) - phi(k, j - 1, i)) * ihy;
        if (zs + (k - oz) > 0) w(k, j, i) -= (phi(k, j, i) - phi(k - 1, j, i)) / dzc(k);
        if (to_pressure != 0.0) p(k, j, i) = phi(k, j, i) * to_pressure;
      });
}

template class PressureProjection<2>;
template class PressureProjection<3>;

}  // namespace surrox::solvers::rayleigh_benard
