// ctest-labels: unit
// ctest-libraries: surrox_training surrox_solvers surrox_mesh surrox_io_hdf5
// ctest-pch: torch
// AirfRANS's scores (training/field/airfrans_metrics.hpp) and the wall-force integration they rest
// on (training/field/airfoil_wall_forces.hpp): forces of hand-computed walls, the integration of a
// RANS solution's own fields against the solver's wall forces, and the scores of a perfect and of a
// distorted prediction on a dataset made from that solution.
#include "training/field/airfrans_metrics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "core/error.hpp"
#include "io/hdf5_sweep.hpp"
#include "mesh/airfoil_geometry.hpp"
#include "mesh/airfoil_grid.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"
#include "tests/airfoil/lusgs_test_parameters.hpp"
#include "training/field/airfoil_wall_forces.hpp"

namespace surrox::training {
namespace {

// A diamond "airfoil": trailing edge (1, 0), lower corner (0.5, −0.1), leading edge (0, 0),
// upper corner (0.5, 0.1), walked as the O-grid walks its wall (lower surface first); row 1 is
// the diamond scaled by 1.2 about (0.5, 0).
WallRow diamond(double p_lower, double p_upper) {
  const double x[5] = {1, 0.5, 0, 0.5, 1}, y[5] = {0, -0.1, 0, 0.1, 0};
  WallRow w;
  for (int i = 0; i < 5; ++i) {
    w.x0.push_back(x[i]), w.y0.push_back(y[i]);
    w.x1.push_back(0.5 + 1.2 * (x[i] - 0.5)), w.y1.push_back(1.2 * y[i]);
  }
  for (int i = 0; i < 4; ++i) {
    w.rho.push_back(1), w.u.push_back(0), w.v.push_back(0);
    w.p.push_back(i < 2 ? p_lower : p_upper);
  }
  return w;
}

TEST(AirfoilWallForces, PressureOfAHandComputedDiamond) {
  FreeStream s;
  s.mach = 0.5;
  const double p_inf = 1 / (1.4 * 0.25);
  // Lower faces' S sum to (0, −1), upper faces' to (0, 1): F = −(p − p∞)S = (0, 0.5) + (0, 0.5);
  // chord 1, q = ½: CL = 2 at α = 0; rotated by α.
  for (double alpha : {0.0, 10.0}) {
    s.alpha_deg = alpha;
    const ForceCoefficients c = wall_force_coefficients(diamond(p_inf + 0.5, p_inf - 0.5), s);
    const double a = alpha * M_PI / 180;
    EXPECT_NEAR(c.cl, 2 * std::cos(a), 1e-12);
    EXPECT_NEAR(c.cd, 2 * std::sin(a), 1e-12);
    EXPECT_NEAR(c.cd_pressure, c.cd, 1e-12);
    EXPECT_EQ(c.cd_friction, 0);
  }
  // A uniform pressure on a closed wall: no force.
  const ForceCoefficients zero = wall_force_coefficients(diamond(p_inf + 3, p_inf + 3), s);
  EXPECT_NEAR(zero.cl, 0, 1e-12);
  EXPECT_NEAR(zero.cd, 0, 1e-12);
}

TEST(AirfoilWallForces, FrictionOfALinearProfile) {
  // u = (k d, 0) in each first cell (d: its centroid's distance from the face): τ·n = μ k
  // (e_x + ⅓ n n_x) per unit length; over the diamond's four faces (length L = √0.26 each)
  // Σ|S| = 4L and Σ S_x S/|S| = (0.04/L, 0), so F = μ k (4L + 0.04/(3L), 0), q = ½.
  FreeStream s;
  s.mach = 0.5;
  s.reynolds = 1e3;  // μ∞ = c/Re = 1e-3
  WallRow w = diamond(1 / (1.4 * 0.25), 1 / (1.4 * 0.25));
  const double k = 2.0;
  for (int i = 0; i < 4; ++i) {
    const double sx = -(w.y0[i + 1] - w.y0[i]), sy = w.x0[i + 1] - w.x0[i], l = std::hypot(sx, sy);
    const double xc = 0.25 * (w.x0[i] + w.x0[i + 1] + w.x1[i] + w.x1[i + 1]);
    const double yc = 0.25 * (w.y0[i] + w.y0[i + 1] + w.y1[i] + w.y1[i + 1]);
    const double d =
        ((xc - 0.5 * (w.x0[i] + w.x0[i + 1])) * sx + (yc - 0.5 * (w.y0[i] + w.y0[i + 1])) * sy) / l;
    ASSERT_GT(d, 0);
    w.u[i] = k * d;
  }
  const double l = std::sqrt(0.26);
  const ForceCoefficients c = wall_force_coefficients(w, s);
  EXPECT_NEAR(c.cd_friction, 2 * 1e-3 * k * (4 * l + 0.04 / (3 * l)), 1e-12);
  EXPECT_NEAR(c.cd_pressure, 0, 1e-12);
  EXPECT_NEAR(c.cl, 0, 1e-12);
  // Sutherland's law at T = T∞ leaves μ = μ∞.
  s.sutherland_ratio = 110.4 / 300;
  EXPECT_NEAR(wall_force_coefficients(w, s).cd_friction, c.cd_friction, 1e-15);
}

TEST(AirfoilWallForces, BadInputIsAnInputError) {
  FreeStream s;
  s.mach = 0.5;
  WallRow w = diamond(1, 1);
  w.p.pop_back();
  EXPECT_THROW(wall_force_coefficients(w, s), InputError);
  w = diamond(1, 1);
  w.rho[2] = 0;
  EXPECT_THROW(wall_force_coefficients(w, s), InputError);
  EXPECT_THROW(mean_relative_error({1, 2}, {1}), InputError);
}

TEST(AirfransScores, MeanRelativeErrorByHand) {
  // |1.1 − 1|/1 = 0.1, |−0.5 − (−1)|/1 = 0.5, |0.02 − 0.01|/0.01 = 1: mean 0.5333…
  EXPECT_NEAR(mean_relative_error({1.1, -0.5, 0.02}, {1, -1, 0.01}), 1.6 / 3, 1e-12);
}

// One RANS solution (NACA 2412 at α = 4°, Re 1e6, M 0.3, 64 × 40 cells, 300 cycles): its output
// fields, grid and forces.
struct RansSolution {
  io::MeshData mesh;
  double cl = 0, cd = 0, cd_friction = 0;
};

RansSolution solve_rans() {
  mesh::AirfoilGridOptions options;
  options.cells_around = 64;
  options.cells_normal = 40;
  options.first_cell_height = 1e-4;
  options.farfield_radius = 10;
  const auto grid = mesh::build_airfoil_grid(mesh::naca_airfoil("2412"), options);
  solvers::airfoil::AirfoilParameters p = solvers::airfoil::lusgs_test_parameters();
  p.equations = solvers::airfoil::Equations::kRans;
  p.reynolds = 1e6;
  p.mach = 0.3;
  p.alpha_deg = 4;
  p.cfl = 20;
  p.max_iterations = 300;
  solvers::airfoil::AirfoilSolver solver;
  solver.initialize(p, grid);
  while (!solver.finished()) solver.advance();
  solver.compute_residual();  // the wall fluxes of the final state
  const auto c = solver.coefficients();
  return RansSolution{solver.output_mesh(), c.at("cl"), c.at("cd"), c.at("cd_friction")};
}

// The solution is computed once per suite and freed before Kokkos is finalised (its arrays
// are Kokkos views).
class AirfransOnRans : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { solution_ = std::make_unique<RansSolution>(solve_rans()); }
  static void TearDownTestSuite() { solution_.reset(); }
  static std::unique_ptr<RansSolution> solution_;
};
std::unique_ptr<RansSolution> AirfransOnRans::solution_;

// The wall row of the solution's own fields.
WallRow solution_wall(const io::MeshData& m) {
  const long ni = m.extent[1] - m.extent[0];
  const io::NamedArray *rho = m.find_cell_array("density"), *vel = m.find_cell_array("velocity"),
                       *p = m.find_cell_array("pressure");
  WallRow w;
  for (long i = 0; i <= ni; ++i) {
    w.x0.push_back(m.points(i, 0)), w.y0.push_back(m.points(i, 1));
    w.x1.push_back(m.points(i + ni + 1, 0)), w.y1.push_back(m.points(i + ni + 1, 1));
  }
  for (long i = 0; i < ni; ++i) {
    w.rho.push_back(rho->values(i, 0));
    w.u.push_back(vel->values(i, 0)), w.v.push_back(vel->values(i, 1));
    w.p.push_back(p->values(i, 0));
  }
  return w;
}

TEST_F(AirfransOnRans, SolverFieldsGiveTheSolversForces) {
  const RansSolution& s = *solution_;
  ASSERT_GT(s.cl, 0.3);  // a lifting, viscous solution
  ASSERT_GT(s.cd_friction, 0.002);
  FreeStream stream{0.3, 4, 1e6, 110.4 / 300};
  const ForceCoefficients c = wall_force_coefficients(solution_wall(s.mesh), stream);
  std::printf(
      "solver CL %.6f CD %.6f (friction %.6f); integrated CL %.6f CD %.6f (friction %.6f)\n", s.cl,
      s.cd, s.cd_friction, c.cl, c.cd, c.cd_friction);
  // Measured: CL 0.679635 against 0.679554, CD 0.023770 against 0.023633 (friction 0.008081
  // against 0.008073): the first cell's pressure and the thin-layer stress against the solver's
  // Roe wall flux and diamond-gradient stress.
  EXPECT_NEAR(c.cl, s.cl, 1e-3 * s.cl);
  EXPECT_NEAR(c.cd_friction, s.cd_friction, 0.01 * s.cd_friction);
  EXPECT_NEAR(c.cd, s.cd, 0.02 * s.cd);
  // The RANS output carries the eddy viscosity, zero-free in the boundary layer.
  const io::NamedArray* nu_t = s.mesh.find_cell_array("nu_t");
  ASSERT_NE(nu_t, nullptr);
  double largest = 0;
  for (std::size_t n = 0; n < nu_t->tuples(); ++n) largest = std::max(largest, nu_t->values(n, 0));
  EXPECT_GT(largest, 10 * 1e-6);  // ν_t ≫ ν∞ = 1e-6 somewhere
}

TEST_F(AirfransOnRans, PerfectAndDistortedPredictions) {
  const RansSolution& s = *solution_;
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("surrox_airfrans_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  // Three cases of the same fields at α 2, 4 and 6 (their forces rotate with α).
  io::SweepDatasetWriter writer(dir / "sweep.h5", 3,
                                "solver: {type: airfoil, equations: rans, mach: 0.3, reynolds: "
                                "1.0e6, turbulence: {freestream_temperature: 300}}",
                                "test");
  for (std::size_t k = 0; k < 3; ++k) {
    io::SweepCase c;
    c.name = "case_000" + std::to_string(k);
    c.parameters = {{"solver.alpha_deg", std::to_string(2 + 2 * k)}};
    c.results = {{"cl", s.cl}, {"cd", s.cd}};
    c.mesh = s.mesh;
    writer.write(k, c);
  }
  writer.close();
  const long cells = static_cast<long>(s.mesh.find_cell_array("density")->tuples());
  const io::NamedArray *rho = s.mesh.find_cell_array("density"),
                       *vel = s.mesh.find_cell_array("velocity"),
                       *p = s.mesh.find_cell_array("pressure"),
                       *nu_t = s.mesh.find_cell_array("nu_t");
  torch::Tensor fields = torch::empty({cells, 5}, torch::kFloat64);
  auto a = fields.accessor<double, 2>();
  for (long n = 0; n < cells; ++n) {
    a[n][0] = rho->values(n, 0), a[n][1] = vel->values(n, 0), a[n][2] = vel->values(n, 1);
    a[n][3] = p->values(n, 0), a[n][4] = nu_t->values(n, 0);
  }
  AirfransInput in;
  in.sweep = dir / "sweep.h5";
  in.cases = {"case_0000", "case_0001", "case_0002"};
  in.outputs.names = {"density", "velocity[0]", "velocity[1]", "pressure", "nu_t"};
  in.outputs.mean = {1, 0.5, 0, 7.9, 1e-5};
  in.outputs.scale = {0.1, 0.5, 0.2, 0.5, 1e-5};
  in.predicted = {fields, fields, fields};
  in.truth = in.predicted;
  const nlohmann::json perfect = airfrans_metrics(in);
  ASSERT_FALSE(perfect.contains("skipped")) << perfect.dump();
  EXPECT_EQ(perfect["cl_relative_error"].get<double>(), 0);
  EXPECT_EQ(perfect["cd_relative_error"].get<double>(), 0);
  EXPECT_EQ(perfect["volume_mse_mean"].get<double>(), 0);
  EXPECT_NEAR(perfect["spearman_cl"].get<double>(), 1, 1e-12);
  EXPECT_TRUE(perfect["targets_met"]["cl_relative_error"].get<bool>());
  // The truth's integration at α = 4° (case 1) is the solver's CL within 1 %.
  EXPECT_NEAR(perfect["per_case"][1]["cl_cfd"].get<double>(), s.cl, 1e-3 * s.cl);

  // Velocity doubled: the friction doubles (μ depends on p/ρ only); ν_t off by one scale: its
  // normalised MSE is 1; the surface pressure is untouched.
  torch::Tensor distorted = fields.clone();
  distorted.select(1, 1).mul_(2);
  distorted.select(1, 2).mul_(2);
  distorted.select(1, 4).add_(1e-5);
  in.predicted = {distorted, distorted, distorted};
  const nlohmann::json off = airfrans_metrics(in);
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(off["per_case"][k]["cd_friction_predicted"].get<double>(),
                2 * off["per_case"][k]["cd_friction_cfd"].get<double>(), 1e-12);
  EXPECT_NEAR(off["volume_mse"]["nu_t"].get<double>(), 1, 1e-9);
  EXPECT_EQ(off["surface_pressure_mse"].get<double>(), 0);
  EXPECT_GT(off["cd_relative_error"].get<double>(), 0.1);
  EXPECT_FALSE(airfrans_table(off).empty());

  // A model without pressure is skipped with the reason.
  in.outputs.names = {"density", "velocity[0]", "velocity[1]", "temperature", "nu_t"};
  EXPECT_TRUE(airfrans_metrics(in).contains("skipped"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace surrox::training
