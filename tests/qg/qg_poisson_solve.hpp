#pragma once
// The streamfunction inversion the QG Poisson tests share: ∇²ψ = ω with ψ = 0 on the walls of
// [0, 1] × [−1, 1] and the closed form ψ = eˣ sin(πx) sin(π(y + 1)/2), solved by a named solver
// on nx × ny intervals on the test's ranks.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "apps/run_case.hpp"
#include "core/runtime.hpp"
#include "io/case_file.hpp"
#include "solvers/common/fft_poisson_solver.hpp"
#include "solvers/common/fft_tridiagonal_poisson_solver.hpp"
#include "solvers/common/ksp_poisson_solver.hpp"
#include "support/test_paths.hpp"

namespace surrox::solvers::qg_poisson {

inline double exact_psi(double x, double y) {
  return std::exp(x) * std::sin(M_PI * x) * std::sin(M_PI * (y + 1) / 2);
}
inline double exact_omega(double x, double y) {  // ∇² of exact_psi
  const double g = std::exp(x) * std::sin(M_PI * x);
  const double gxx =
      std::exp(x) * ((1 - M_PI * M_PI) * std::sin(M_PI * x) + 2 * M_PI * std::cos(M_PI * x));
  const double h = std::sin(M_PI * (y + 1) / 2);
  return gxx * h - g * h * M_PI * M_PI / 4;
}

struct Solved {
  double max_error = 0, max_psi = 0;
  std::vector<double> psi;  // owned nodes, (y, x) row-major
};

// Solves on nx × ny intervals of [0, 1] × [−1, 1] with the named solver.
inline Solved solve(long nx, long ny, const std::string& which) {
  const io::CaseFile c =
      io::load_case_text("solver: {type: qg}\n", "qg.yaml", apps::run_case_schema(), {});
  const CaseNode options = c.root.section("solver").section("poisson");
  const DmdaGrid grid(testing::runtime().comm(), 2, {nx - 1, 1, ny - 1}, false);
  const double hx = 1.0 / static_cast<double>(nx), hy = 2.0 / static_cast<double>(ny);
  const WallNormalGrid z(ny - 1, 0.0);
  const double hx_scaled = z.dz(0) * hx / hy;
  const PoissonBoundaries sides{PoissonSide::kDirichlet, PoissonSide::kDirichlet};
  std::unique_ptr<PoissonSolver> poisson;
  if (which == "fft")
    poisson = std::make_unique<FftPoissonSolver>(grid, z, hx_scaled, sides);
  else if (which == "fft_tridiagonal")
    poisson = std::make_unique<FftTridiagonalPoissonSolver>(grid, z, hx_scaled, sides);
  else
    poisson = std::make_unique<KspPoissonSolver>(grid, z, hx_scaled, 1.0, options, "t_", 1, sides);
  const Field3 rhs = grid.owned_field("rhs"), psi = grid.ghosted_field("psi");
  auto r = Kokkos::create_mirror_view(rhs);
  const long xs = grid.start(DmdaGrid::kX), zs = grid.start(DmdaGrid::kZ);
  const long xm = grid.owned(DmdaGrid::kX), zm = grid.owned(DmdaGrid::kZ);
  for (long k = 0; k < zm; ++k)
    for (long i = 0; i < xm; ++i)
      r(k, 0, i) = -hx * hy * exact_omega((xs + i + 1) * hx, -1 + (zs + k + 1) * hy);
  Kokkos::deep_copy(rhs, r);
  EXPECT_TRUE(poisson->solve(rhs, psi, 0, 0.0).converged);
  auto p = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), psi);
  Solved out;
  const long ox = grid.offset(DmdaGrid::kX), oz = grid.offset(DmdaGrid::kZ);
  for (long k = 0; k < zm; ++k)
    for (long i = 0; i < xm; ++i) {
      const double e = exact_psi((xs + i + 1) * hx, -1 + (zs + k + 1) * hy);
      out.max_error = std::max(out.max_error, std::fabs(p(k + oz, 0, i + ox) - e));
      out.max_psi = std::max(out.max_psi, std::fabs(e));
      out.psi.push_back(p(k + oz, 0, i + ox));
    }
  // The walls come back as 0 (the Dirichlet ghosts).
  if (xs == 0) {
    EXPECT_EQ(p(oz, 0, ox - 1), 0.0);
  }
  if (zs == 0) {
    EXPECT_EQ(p(oz - 1, 0, ox), 0.0);
  }
  return out;
}

}  // namespace surrox::solvers::qg_poisson
