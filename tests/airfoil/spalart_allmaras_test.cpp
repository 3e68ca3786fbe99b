// ctest-labels: unit
// ctest-libraries: surrox_solvers
// The Spalart–Allmaras model itself (solvers/airfoil/spalart_allmaras.hpp) against values worked
// out by hand from the formulas on NASA TMR's SA page (turbmodels.larc.nasa.gov/spalart.html,
// "SA" and "SA-neg", with note 1(c)'s S̃ limiting): a near-wall state where S̃ is limited and
// r is capped at 10, a laminar state where f_t2 makes P negative, a turbulent state (f_t2 = 0),
// and the SA-neg branch for ν̃ < 0. Then the discrete boundary conditions of ν̃ on a flat-plate
// grid (wall ghost −ν̃, symmetry ghost +ν̃, far-field inflow ν̃∞, outflow extrapolated) and the
// wall distance ahead of the plate. Last, the second-order convection of ν̃
// (turbulence_convection.hpp): exact for a quadratic ν̃ on a uniform grid, where first order errs
// by u·V·h·ν̃''/2.
#include "solvers/airfoil/spalart_allmaras.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "mesh/flat_plate_grid.hpp"
#include "solvers/airfoil/boundary_conditions.hpp"
#include "solvers/airfoil/flow_level.hpp"
#include "solvers/airfoil/turbulence.hpp"
#include "solvers/airfoil/turbulence_convection.hpp"
#include "tests/airfoil/lusgs_test_parameters.hpp"

namespace surrox::solvers::airfoil {
namespace {

void expect_relative(double got, double want, double tol = 1e-12) {
  EXPECT_NEAR(got, want, tol * std::fabs(want)) << "want " << want;
}

TEST(SpalartAllmaras, ConstantsAreTmrs) {
  // c_w1 = c_b1/κ² + (1 + c_b2)/σ
  expect_relative(sa::kCw1, 0.1355 / (0.41 * 0.41) + 1.622 * 1.5);
  expect_relative(sa::kCw1, 3.2390678167757287);
}

TEST(SpalartAllmaras, NearWallStateWithLimitedSTildeAndCappedR) {
  // ν̃ = 3e−5, ν = 1e−5 (χ = 3), Ω = 100, d = 1e−3: S̄ = ν̃ f_v2/(κ²d²) = −263.8 < −c_v2 Ω, so
  // S̃ = Ω + Ω(c_v2²Ω + c_v3 S̄)/((c_v3 − 2c_v2)Ω − S̄) = 11.8705; r = ν̃/(S̃κ²d²) > 10 → 10.
  const sa::Source s = sa::source(3e-5, 1e-5, 100, 1e-3, sa::Model::kSa);
  expect_relative(sa::fv1(3.0), 0.07014608571851676);
  expect_relative(s.ft2, 0.013330795845890767);
  expect_relative(s.s_tilde, 11.870467362010842);
  EXPECT_EQ(s.r, 10.0);
  expect_relative(s.fw, 2.005174745150423);
  expect_relative(s.production, 4.7610192938076085e-05);
  expect_relative(s.destruction, 0.005835736312672346);
  EXPECT_GT(s.implicit, 0);
}

TEST(SpalartAllmaras, LaminarStateWhereFt2TurnsProductionNegative) {
  // χ = 0.1: f_t2 = c_t3 e^{−c_t4 χ²} = 1.194 > 1, so P = c_b1(1 − f_t2)S̃ν̃ < 0 (TMR's SA).
  const sa::Source s = sa::source(1e-6, 1e-5, 50, 1e-2, sa::Model::kSa);
  expect_relative(s.ft2, 1.1940149750312188);
  expect_relative(s.s_tilde, 50.053539561447934);
  expect_relative(s.r, 0.0011884953648286117, 1e-10);
  expect_relative(s.fw, 0.0008340993115989348, 1e-10);
  expect_relative(s.production, -1.3158589589263093e-06);
  expect_relative(s.destruction, -9.59755339884746e-09, 1e-9);
}

TEST(SpalartAllmaras, TurbulentState) {
  const sa::Source s = sa::source(5e-4, 1e-5, 10, 2e-2, sa::Model::kSaNeg);
  EXPECT_NEAR(s.ft2, 0.0, 1e-300);  // e^{−1250}
  expect_relative(s.s_tilde, 10.125341274556353);
  expect_relative(s.r, 0.7343999346413749);
  expect_relative(s.fw, 0.5625531760693712);
  expect_relative(s.production, 0.000685991871351193);
  expect_relative(s.destruction, 0.0011388424298945442);
  // The eddy viscosity ρν̃f_v1(χ = 50).
  expect_relative(sa::eddy_viscosity(1.2, 5e-4, 1e-5), 1.2 * 5e-4 * 0.9971448870107608);
}

TEST(SpalartAllmaras, NegativeBranch) {
  // SA-neg, ν̃ = −2e−6 < 0: P = c_b1(1 − c_t3)Ων̃, D = −c_w1(ν̃/d)², f_n = (c_n1 + χ³)/(c_n1 − χ³),
  // μ_t = 0. Both terms push ν̃ back up: P − D > 0.
  const sa::Source s = sa::source(-2e-6, 1e-5, 100, 1e-3, sa::Model::kSaNeg);
  expect_relative(s.production, 5.42e-06);
  expect_relative(s.destruction, -1.2956271267102916e-05);
  EXPECT_GT(s.production - s.destruction, 0);
  EXPECT_GT(s.implicit, 0);
  expect_relative(sa::diffusion_fn(-2e-6, 1e-5), 0.9990004997501251);
  EXPECT_EQ(sa::diffusion_fn(2e-6, 1e-5), 1.0);
  EXPECT_EQ(sa::eddy_viscosity(1.0, -2e-6, 1e-5), 0.0);
  // Standard SA has no branch below zero (it clips ν̃ ≥ 0): no source there.
  const sa::Source plain = sa::source(-2e-6, 1e-5, 100, 1e-3, sa::Model::kSa);
  EXPECT_EQ(plain.production, 0.0);
  EXPECT_EQ(plain.destruction, 0.0);
}

TEST(SpalartAllmaras, SutherlandLaw) {
  EXPECT_EQ(sa::sutherland(1.0, 110.4 / 300), 1.0);
  expect_relative(sa::sutherland(1.2, 110.4 / 300), 1.1468639673475516);
}

TEST(SpalartAllmaras, DiscreteWallSymmetryAndFarFieldRows) {
  mesh::FlatPlateGridSpec spec;
  spec.cells_upstream = 8;
  spec.cells_plate = 24;
  spec.cells_normal = 16;
  spec.wall_spacing = 1e-4;
  const mesh::CurvilinearGrid grid = mesh::build_flat_plate_grid(spec);
  AirfoilParameters p = lusgs_test_parameters();
  p.equations = Equations::kRans;
  p.mach = 0.2;
  p.reynolds = 5e6;
  p.far_field = FarField::kFreestream;
  p.nu_tilde_ratio = 3;
  const long ni = grid.cells_i(), nj = grid.cells_j();
  FlowLevel level(p, grid, Slab(MPI_COMM_SELF, {nj}, ni));
  level.set_freestream();
  EXPECT_DOUBLE_EQ(level.nu_tilde_inf, 3 / 5e6);
  // ν̃ = 1e−4 (i + 1)(j + 1) inside; the flow leaves through the top ahead of x = 0 (v > 0) and
  // enters behind it (v < 0).
  auto nt = Kokkos::create_mirror_view(level.nu_tilde);
  auto w = Kokkos::create_mirror_view(level.w);
  Kokkos::deep_copy(w, level.w);
  for (long j = 0; j < nj; ++j)
    for (long i = 0; i < ni; ++i) {
      nt(0, j + 2, i) = 1e-4 * static_cast<double>((i + 1) * (j + 1));
      w(2, j + 2, i) = i < spec.cells_upstream ? 0.1 : -0.1;
    }
  Kokkos::deep_copy(level.nu_tilde, nt);
  Kokkos::deep_copy(level.w, w);
  fill_boundary_rows(level);
  fill_turbulence_rows(level);
  Kokkos::deep_copy(nt, level.nu_tilde);
  for (long i = 0; i < ni; ++i) {
    const double sign = i >= spec.cells_upstream ? -1.0 : 1.0;  // wall from the plate on
    EXPECT_EQ(nt(0, 1, i), sign * nt(0, 2, i)) << "i = " << i;
    EXPECT_EQ(nt(0, 0, i), sign * nt(0, 3, i)) << "i = " << i;
    const double top = i < spec.cells_upstream ? nt(0, nj + 1, i) : 3 / 5e6;
    EXPECT_EQ(nt(0, nj + 2, i), top) << "i = " << i;
    EXPECT_EQ(nt(0, nj + 3, i), top) << "i = " << i;
  }
  // The wall distance ahead of the plate is to its leading edge (0, 0), above it the height.
  const mesh::GridMetrics m = mesh::compute_metrics(grid);
  EXPECT_DOUBLE_EQ(m.wall_distance(0, 3), std::hypot(m.xc(0, 3), m.yc(0, 3)));
  EXPECT_DOUBLE_EQ(m.wall_distance(20, 3), m.yc(20, 3));
}

// The face term itself: in uniform flow on a uniform line of cells, the two faces of a cell give
// the second-order upwind difference, exact for a quadratic with Fromm's slopes.
TEST(TurbulenceConvection, FaceTermsOfAQuadraticAreExact) {
  const auto f = [](double x) { return 1 + 3 * x * x; };
  const double h = 0.1, x = 0.7;  // cell centre x, neighbours at x ± h
  // Inflow face (towards x − h, q < 0) and outflow face (towards x + h, q > 0), q = ±1.
  const double in = muscl_convection(-1, f(x + h), f(x), f(x - h), f(x - 2 * h), Limiter::kNone, 0);
  const double out = muscl_convection(1, f(x - h), f(x), f(x + h), f(x + 2 * h), Limiter::kNone, 0);
  EXPECT_NEAR(in + out, 6 * x * h, 1e-13);  // h·dν̃/dx
  // First order (zero slopes): −(f(x − h) − f(x)) = 6xh − 3h², off by h²·ν̃''/2.
  const double first =
      muscl_convection(-1, f(x + h), f(x), f(x - h), f(x - 2 * h), Limiter::kFirstOrder, 0);
  EXPECT_NEAR(first, 6 * x * h - 3 * h * h, 1e-13);
  // A limiter clips at an extremum: ν̃ peaks in c, so its face value stays ν̃_c.
  EXPECT_EQ(muscl_convection(1, 1.0, 2.0, 1.0, 0.0, Limiter::kMinmod, 0), 0.0);
}

// The solver's residual: ν̃ = ν̃∞(1 + A x²) in a uniform stream u along x on a uniform grid.
// Every other term of the residual is the same for both schemes, so R₂ − R₁ is the difference
// of the convective terms, u h_y h² A ν̃∞ in each interior cell (first order's error).
TEST(TurbulenceConvection, SecondOrderResidualDiffersByFirstOrdersError) {
  mesh::FlatPlateGridSpec spec;
  spec.cells_upstream = 8;
  spec.cells_plate = 32;
  spec.cells_normal = 8;
  spec.x_inflow = -0.5;
  spec.leading_edge_spacing = 0.0625;  // = 0.5 / 8 = 2 / 32: uniform in x
  spec.wall_spacing = 0.125;           // uniform in y
  const mesh::CurvilinearGrid grid = mesh::build_flat_plate_grid(spec);
  const long ni = grid.cells_i(), nj = grid.cells_j();
  const double h = 0.0625, hy = 0.125, a = 0.3;
  std::vector<double> residual[2];
  double u = 0;  // the free stream's u in the solver's units
  for (int order = 0; order < 2; ++order) {
    AirfoilParameters p = lusgs_test_parameters();
    p.equations = Equations::kRans;
    p.mach = 0.2;
    p.reynolds = 5e6;
    p.far_field = FarField::kFreestream;
    p.limiter = Limiter::kNone;
    p.turbulence_convection =
        order == 0 ? TurbulenceConvection::kFirstOrder : TurbulenceConvection::kSecondOrder;
    FlowLevel level(p, grid, Slab(MPI_COMM_SELF, {nj}, ni));
    level.set_freestream();
    u = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), level.w)(1, 2, 0);
    const mesh::GridMetrics m = mesh::compute_metrics(grid);
    auto nt = Kokkos::create_mirror_view(level.nu_tilde);
    for (long j = 0; j < nj; ++j)
      for (long i = 0; i < ni; ++i)
        nt(0, j + 2, i) = level.nu_tilde_inf * (1 + a * m.xc(i, j) * m.xc(i, j));
    Kokkos::deep_copy(level.nu_tilde, nt);
    fill_boundary_rows(level);
    fill_turbulence_rows(level);
    TurbulenceSolver solver(level);
    solver.evaluate(level, 10.0);
    auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), solver.residual());
    for (long j = 0; j < nj; ++j)
      for (long i = 0; i < ni; ++i) residual[order].push_back(r(j, i));
  }
  ASSERT_GT(u, 0);
  long checked = 0;
  for (long j = 1; j + 1 < nj; ++j)
    for (long i = 2; i + 2 < ni; ++i) {
      const std::size_t n = static_cast<std::size_t>(j * ni + i);
      EXPECT_NEAR(residual[1][n] - residual[0][n], u * hy * h * h * a * 3 / 5e6,
                  1e-9 * u * hy * h * h * a * 3 / 5e6)
          << "cell (" << i << ", " << j << ")";
      ++checked;
    }
  EXPECT_GT(checked, 100);
}

}  // namespace
}  // namespace surrox::solvers::airfoil
