// ctest-labels: unit
// ctest-libraries: surrox_solvers
// Airfoil solver, discrete properties: Roe flux consistency and conservation, limiter
// symmetry, free-stream preservation on a curved grid, and the global conservation budget
// (interior fluxes cancel: Σ residuals = fluxes through the boundaries).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/error.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"
#include "support/test_paths.hpp"
#include "tests/airfoil/lusgs_test_parameters.hpp"
#include "tests/airfoil/test_grids.hpp"

namespace surrox::solvers::airfoil {
namespace {

State some_state(double rho, double u, double v, double p) { return {{rho, u, v, p}}; }

TEST(AirfoilFlux, RoeFluxOfEqualStatesIsThePhysicalFlux) {
  for (const State w : {some_state(1, 1, 0, 1 / (1.4 * 0.25)), some_state(0.7, -0.3, 0.8, 2.0),
                        some_state(1.3, 0.01, -0.02, 31.7)}) {
    for (const auto& s : {std::pair{0.3, -0.7}, std::pair{-1.0, 0.0}, std::pair{2.0, 5.0}}) {
      const State f = roe_flux(w, w, s.first, s.second, 0.1);
      const State g = physical_flux(w, s.first, s.second);
      for (int k = 0; k < 4; ++k) EXPECT_NEAR(f[k], g[k], 1e-13 * (1 + std::fabs(g[k]))) << k;
    }
  }
}

TEST(AirfoilFlux, RoeFluxIsConservative) {
  // The flux from l to r through S is minus the flux from r to l through −S.
  const State wl = some_state(1.1, 0.4, -0.2, 1.9), wr = some_state(0.9, 0.5, 0.1, 2.3);
  const State f = roe_flux(wl, wr, 0.6, 0.8, 0.1), g = roe_flux(wr, wl, -0.6, -0.8, 0.1);
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(f[k], -g[k], 1e-14) << k;
}

TEST(AirfoilFlux, RoeFluxResolvesAStationaryContactExactly) {
  // A density jump at rest with equal pressure: no mass flux, momentum flux p S.
  const State wl = some_state(1.0, 0, 0, 1.0), wr = some_state(0.25, 0, 0, 1.0);
  const State f = roe_flux(wl, wr, 1, 0, 0.1);
  EXPECT_NEAR(f[0], 0, 1e-15);
  EXPECT_NEAR(f[1], 1.0, 1e-15);
  EXPECT_NEAR(f[2], 0, 1e-15);
  EXPECT_NEAR(f[3], 0, 1e-15);
}

TEST(AirfoilFlux, RoeFluxAtASlipWallMirrorCarriesOnlyPressure) {
  const State w = some_state(1.2, 0.3, 0.4, 2.0);
  const double nx = 0.6, ny = 0.8, vn = w[1] * nx + w[2] * ny;
  const State g = some_state(w[0], w[1] - 2 * vn * nx, w[2] - 2 * vn * ny, w[3]);
  const State f = roe_flux(w, g, nx, ny, 0.1);
  EXPECT_NEAR(f[0], 0, 1e-14);
  EXPECT_NEAR(f[3], 0, 1e-14);
  EXPECT_NEAR(f[1] * ny - f[2] * nx, 0, 1e-14);  // no tangential force
}

TEST(AirfoilFlux, LimitersAreSymmetricAndTVD) {
  for (Limiter l : {Limiter::kMinmod, Limiter::kVanLeer, Limiter::kVanAlbada}) {
    for (double a : {-2.0, -0.5, 0.3, 1.0, 4.0})
      for (double b : {-3.0, -0.1, 0.2, 1.0, 2.5}) {
        const double s = limited_slope(l, a, b);
        EXPECT_DOUBLE_EQ(s, limited_slope(l, b, a));
        if (a * b <= 0)
          EXPECT_EQ(s, 0.0);
        else
          EXPECT_LE(std::fabs(s), 2 * std::min(std::fabs(a), std::fabs(b)) + 1e-15);
      }
    EXPECT_DOUBLE_EQ(limited_slope(l, 0.7, 0.7), 0.7);  // exact for linear data
  }
}

TEST(AirfoilFlux, DiamondGradientIsExactForLinearFields) {
  const double x[4] = {0.1, 0.9, 1.2, 0.3}, y[4] = {0.0, -0.2, 0.8, 0.9};
  double phi[4];
  for (int n = 0; n < 4; ++n) phi[n] = 2.5 * x[n] - 1.5 * y[n] + 0.7;
  double gx, gy;
  diamond_gradient(x, y, phi, gx, gy);
  EXPECT_NEAR(gx, 2.5, 1e-13);
  EXPECT_NEAR(gy, -1.5, 1e-13);
  const double xr[4] = {x[0], x[3], x[2], x[1]}, yr[4] = {y[0], y[3], y[2], y[1]},
               pr[4] = {phi[0], phi[3], phi[2], phi[1]};
  diamond_gradient(xr, yr, pr, gx, gy);  // the other orientation
  EXPECT_NEAR(gx, 2.5, 1e-13);
  EXPECT_NEAR(gy, -1.5, 1e-13);
}

// Both boundaries as far fields on a distorted annulus: the free stream must stay put.
void expect_freestream_preserved(Equations equations) {
  AirfoilParameters p = lusgs_test_parameters();
  p.equations = equations;
  p.reynolds = 1000;
  p.mach = 0.5;
  p.alpha_deg = 3;
  p.inner = InnerBoundary::kFarField;
  p.far_field = FarField::kFreestream;
  p.limiter = Limiter::kVanAlbada;
  AirfoilSolver solver;
  solver.initialize(p, testing::polar_grid(48, 24, 10, 0.08));
  const auto before = solver.conservative_host();
  for (int n = 0; n < 50; ++n) solver.advance();
  const auto after = solver.conservative_host();
  double worst = 0;
  for (int k = 0; k < 4; ++k)
    for (long i = 0; i < solver.cells_i(); ++i)
      for (long j = 0; j < solver.cells_j(); ++j)
        worst = std::max(worst, std::fabs(after[k](i, j) - before[k](i, j)) /
                                    std::max(1.0, std::fabs(before[k](i, j))));
  EXPECT_LT(worst, 1e-12);
  std::cout << "max |ΔU| (relative) after 50 iterations: " << worst << "\n";
}

TEST(AirfoilFreestream, EulerPreservesTheFreeStreamOnACurvedGrid) {
  expect_freestream_preserved(Equations::kEuler);
}

TEST(AirfoilFreestream, NavierStokesPreservesTheFreeStreamOnACurvedGrid) {
  expect_freestream_preserved(Equations::kNavierStokes);
}

// RANS needs the distance to a no-slip wall: the annulus with a far field inside has none, and
// the solver says so (InputError, exit 2 from a case) rather than running the model without it.
TEST(AirfoilFreestream, RansWithoutAWallIsAnInputError) {
  AirfoilParameters p = lusgs_test_parameters();
  p.equations = Equations::kRans;
  p.reynolds = 1e6;
  p.inner = InnerBoundary::kFarField;
  p.far_field = FarField::kFreestream;
  AirfoilSolver solver;
  try {
    solver.initialize(p, testing::polar_grid(48, 24, 10, 0.08));
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("wall distance"), std::string::npos) << e.what();
  }
  p.equations = Equations::kNavierStokes;  // the laminar equations need no wall distance
  EXPECT_NO_THROW(solver.initialize(p, testing::polar_grid(48, 24, 10, 0.08)));
}

TEST(AirfoilConservation, ResidualsSumToTheBoundaryFluxes) {
  for (Equations equations : {Equations::kEuler, Equations::kNavierStokes}) {
    AirfoilParameters p = lusgs_test_parameters();
    p.equations = equations;
    p.reynolds = 500;
    p.mach = 0.4;
    p.alpha_deg = 5;
    AirfoilSolver solver;
    solver.initialize(p, testing::polar_grid(40, 20, 8, 0.05));
    for (int n = 0; n < 20; ++n) solver.advance();  // a non-trivial field
    solver.compute_residual();
    const auto r = solver.residual_host();
    const auto budget = solver.boundary_outflow();
    for (int k = 0; k < 4; ++k) {
      double sum = 0, scale = 0;
      for (long i = 0; i < solver.cells_i(); ++i)
        for (long j = 0; j < solver.cells_j(); ++j)
          sum += r[k](i, j), scale += std::fabs(r[k](i, j));
      EXPECT_NEAR(sum, budget[k], 1e-12 * std::max(1.0, scale)) << "equation " << k;
    }
    // The slip or no-slip wall takes no mass and no energy.
    AirfoilSolver::Surface s = solver.surface();
    EXPECT_EQ(s.cp.size(), static_cast<std::size_t>(solver.cells_i()));
  }
}

}  // namespace
}  // namespace surrox::solvers::airfoil
