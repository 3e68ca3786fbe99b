#include "solvers/airfoil/residual.hpp"

#include <cmath>

#include "solvers/airfoil/boundary_conditions.hpp"
#include "solvers/airfoil/face_fluxes.hpp"
#include "solvers/airfoil/flow_level.hpp"
#include "solvers/airfoil/surface_forces.hpp"
#include "solvers/airfoil/turbulence.hpp"
#include "solvers/scoped_phase.hpp"

namespace surrox::solvers::airfoil {

void evaluate_residual(FlowLevel& level, bool with_forcing) {
  auto& phases = level.phase_seconds;
  {
    ScopedPhase phase(phases, "boundaries");
    fill_boundary_rows(level);
  }
  {
    ScopedPhase phase(phases, "halo");
    level.w_ghosts.exchange(level.w);
  }
  if (level.turbulent) {
    ScopedPhase phase(phases, "turbulence");
    fill_turbulence_rows(level);
  }
  const long ni = level.ni(), nl = level.rows();
  const long ends = level.periodic ? 0 : 1;  // the face and node column ni of a rectangle
  const FaceFluxes fluxes(level);
  if (level.viscous) {
    ScopedPhase phase(phases, "viscous_nodes");
    Kokkos::parallel_for(
        "FaceFluxes::node_values",
        Kokkos::MDRangePolicy<FaceFluxes::NodeValues, Kokkos::Rank<2>>({0, 0}, {nl + 1, ni + ends}),
        fluxes);
  }
  {
    ScopedPhase phase(phases, "fluxes");
    Kokkos::parallel_for(
        "FaceFluxes::i_faces",
        Kokkos::MDRangePolicy<FaceFluxes::IFaces, Kokkos::Rank<2>>({0, 0}, {nl, ni + ends}),
        fluxes);
    Kokkos::parallel_for(
        "FaceFluxes::j_faces",
        Kokkos::MDRangePolicy<FaceFluxes::JFaces, Kokkos::Rank<2>>({0, 0}, {nl + 1, ni}), fluxes);
  }

  // Global figures in one exchange: Σ (R/V)² per equation over the slab, and the wall force
  // sums on the wall rank.
  double sums[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  {
    ScopedPhase phase(phases, "residual");
    const Array3 fi = level.flux_i, fj = level.flux_j, res = level.res, forcing = level.forcing;
    const Array2 area = level.geometry.area;
    const bool forced = with_forcing && forcing.size() > 0, periodic = level.periodic;
    SumN<4> squares;
    Kokkos::parallel_reduce(
        "FlowResidual::balance", Range2({0, 0}, {nl, ni}),
        KOKKOS_LAMBDA(long j, long i, SumN<4>& s) {
          const long ip = periodic ? wrap(i + 1, ni) : i + 1;
          const double inv = 1 / area(j, i);
          for (int k = 0; k < 4; ++k) {
            double r = fi(k, j, ip) - fi(k, j, i) + fj(k, j + 1, i) - fj(k, j, i);
            if (forced) r += forcing(k, j, i);
            res(k, j, i) = r;
            s.v[k] += r * inv * r * inv;
          }
        },
        squares);
    for (int k = 0; k < 4; ++k) sums[k] = squares.v[k];
    if (level.slab.has_wall()) sum_wall_forces(level, sums + 4);
  }
  {
    ScopedPhase phase(phases, "reductions");
    level.slab.sum_over_ranks(sums, 9);
  }
  const double cells = static_cast<double>(ni * level.slab.nj());
  for (int k = 0; k < 4; ++k) level.absolute_residual[k] = std::sqrt(sums[k] / cells);
  for (int n = 0; n < 5; ++n) level.wall_force[n] = sums[4 + n];
}

}  // namespace surrox::solvers::airfoil
