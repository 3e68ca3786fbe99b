// ctest-labels: unit regression
// ctest-libraries: surrox_cli
// Airfoil solver: residual convergence by 8 orders on a small Joukowski grid (analytic conformal
// O-grid, tests/airfoil/test_grids.hpp), bitwise restart, warm start through
// set_initial_primitive, output layout, laminar no-slip sanity, and the case files through the
// CLI (shortened by --set) with bad input exiting 2.
#include "solvers/airfoil/airfoil_solver.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "io/hdf5_checkpoint.hpp"
#include "support/test_paths.hpp"
#include "tests/airfoil/lusgs_test_parameters.hpp"
#include "tests/airfoil/test_grids.hpp"

namespace surrox::solvers::airfoil {
namespace {

AirfoilParameters inviscid(double mach, double alpha_deg) {
  AirfoilParameters p = lusgs_test_parameters();
  p.mach = mach;
  p.alpha_deg = alpha_deg;
  p.cfl = 1000;
  p.max_iterations = 1500;
  p.far_field = FarField::kVortex;
  p.linear_fix = 0.2;
  return p;
}

TEST(AirfoilSolver, JoukowskiResidualFallsEightOrders) {
  const auto jk = testing::joukowski_grid(64, 32, -0.1, 0.05, 20);
  AirfoilSolver solver;
  solver.initialize(inviscid(0.3, 2), jk.grid);
  while (!solver.finished()) solver.advance();
  const Diagnostics d = solver.diagnostics();
  std::cout << "iterations " << solver.step() << ", residual " << solver.residual() << ", cl "
            << d.at("cl") << " (incompressible exact " << jk.lift(2 * M_PI / 180) << "), cd "
            << d.at("cd") << "\n";
  EXPECT_EQ(d.at("converged"), 1.0);
  EXPECT_LE(solver.residual(), 1e-8);
  EXPECT_LT(solver.step(), 600);
  // Subsonic lift lies above the incompressible value (compressibility) and near Prandtl–Glauert.
  const double pg = jk.lift(2 * M_PI / 180) / std::sqrt(1 - 0.09);
  EXPECT_NEAR(d.at("cl"), pg, 0.06 * pg);
  // Spurious (numerical-entropy) drag of this coarse grid; it falls with refinement.
  EXPECT_LT(std::fabs(d.at("cd")), 0.03);
}

TEST(AirfoilSolver, RestartFromACheckpointIsBitwise) {
  const auto jk = testing::joukowski_grid(32, 16, -0.1, 0.05, 10);
  const AirfoilParameters p = inviscid(0.4, 3);
  AirfoilSolver reference;
  reference.initialize(p, jk.grid);
  for (int n = 0; n < 30; ++n) reference.advance();

  AirfoilSolver first;
  first.initialize(p, jk.grid);
  for (int n = 0; n < 15; ++n) first.advance();
  io::Hdf5Checkpoint saved;
  first.save_state(saved);
  const auto path = surrox::testing::scratch_dir() / "airfoil_checkpoint.h5";
  saved.write(path, surrox::testing::runtime().comm());

  AirfoilSolver resumed;
  resumed.initialize(p, jk.grid);
  resumed.load_state(io::Hdf5Checkpoint::read(path, surrox::testing::runtime().comm()));
  EXPECT_EQ(resumed.step(), 15);
  for (int n = 0; n < 15; ++n) resumed.advance();
  EXPECT_EQ(resumed.residual(), reference.residual());
  const auto a = reference.conservative_host(), b = resumed.conservative_host();
  std::size_t differing = 0;
  for (int k = 0; k < 4; ++k)
    for (std::size_t n = 0; n < a[k].size(); ++n) differing += a[k].data()[n] != b[k].data()[n];
  EXPECT_EQ(differing, 0u);
}

TEST(AirfoilSolver, WarmStartFromAConvergedFieldStaysConverged) {
  const auto jk = testing::joukowski_grid(48, 24, -0.1, 0.05, 15);
  AirfoilParameters p = inviscid(0.3, 2);
  p.far_field = FarField::kFreestream;  // the vortex strength is not part of the handed-in field
  AirfoilSolver cold;
  cold.initialize(p, jk.grid);
  while (!cold.finished()) cold.advance();
  ASSERT_EQ(cold.diagnostics().at("converged"), 1.0);
  const double converged = cold.absolute_residuals()[0];

  AirfoilSolver warm;
  warm.initialize(p, jk.grid);
  const auto w = cold.primitive_host();
  warm.set_initial_primitive(w[0], w[1], w[2], w[3]);
  EXPECT_EQ(warm.step(), 0);
  warm.advance();
  EXPECT_LT(warm.residual(), 1e-7);  // relative to the free-stream start: converged at once
  EXPECT_TRUE(warm.finished());
  // The first residual of the warm start is that of the converged field, not of the free stream.
  EXPECT_LT(warm.absolute_residuals()[0], 10 * converged + 1e-14);
  EXPECT_NEAR(warm.coefficients().at("cl"), cold.coefficients().at("cl"), 1e-6);

  // Wrong shapes and non-physical values are bad input.
  AirfoilSolver::HostMatrix small("small", 3, 3);
  EXPECT_THROW(warm.set_initial_primitive(small, w[1], w[2], w[3]), InputError);
  auto bad = w[3];
  AirfoilSolver::HostMatrix negative("p", bad.extent(0), bad.extent(1));
  Kokkos::deep_copy(negative, bad);
  negative(3, 2) = -1;
  EXPECT_THROW(warm.set_initial_primitive(w[0], w[1], w[2], negative), InputError);
}

TEST(AirfoilSolver, DivergenceNamesTheIterationAndTheCell) {
  const auto jk = testing::joukowski_grid(32, 16, -0.1, 0.05, 10);
  AirfoilSolver solver;
  solver.initialize(inviscid(0.5, 2), jk.grid);
  const auto w = solver.primitive_host();
  auto p = w[3];
  AirfoilSolver::HostMatrix wild("p", p.extent(0), p.extent(1));
  Kokkos::deep_copy(wild, p);
  wild(5, 3) = 1e4 * p(5, 3);  // a violent pressure spike
  solver.set_initial_primitive(w[0], w[1], w[2], wild);
  try {
    for (int n = 0; n < 50; ++n) solver.advance();
    FAIL() << "expected the run to diverge";
  } catch (const InputError&) {
    FAIL() << "divergence must be a runtime Error, not bad input";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("diverged at iteration"), std::string::npos) << what;
    EXPECT_NE(what.find("cell (i = "), std::string::npos) << what;
    // How far it spread: the count of bad cells among the grid's 32 × 16.
    EXPECT_NE(what.find(" of 512 cells with ρ or p not positive"), std::string::npos) << what;
  }
}

TEST(AirfoilSolver, OutputMeshIsTheStructuredGridWithCellFields) {
  const auto jk = testing::joukowski_grid(32, 16, -0.1, 0.05, 10);
  AirfoilSolver solver;
  solver.initialize(inviscid(0.4, 1), jk.grid);
  solver.advance();
  const io::MeshData mesh = solver.output_mesh();
  EXPECT_EQ(mesh.kind, io::MeshKind::kStructured);
  EXPECT_EQ(mesh.extent, (std::array<long, 6>{0, 32, 0, 16, 0, 0}));
  EXPECT_EQ(mesh.points.extent(0), 33u * 17u);
  std::vector<std::string> names;
  for (const auto& a : mesh.cell_data) {
    names.push_back(a.name);
    EXPECT_EQ(a.tuples(), 32u * 16u) << a.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"density", "velocity", "pressure", "Mach", "Cp",
                                             "vorticity", "cell_area", "wall_distance"}));
  EXPECT_EQ(mesh.find_cell_array("velocity")->components(), 3u);
  // State fields share the solver's memory: ρ, u, v, p on (1, nj, ni).
  EXPECT_EQ(solver.state().fields.at("density").extent(1), 16u);
  EXPECT_EQ(solver.state().fields.at("density").extent(2), 32u);
}

TEST(AirfoilSolver, LaminarWallHasNoSlipAndPositiveFrictionDrag) {
  const auto jk = testing::joukowski_grid(64, 32, -0.1, 0.0, 15);
  AirfoilParameters p = inviscid(0.5, 0);
  p.equations = Equations::kNavierStokes;
  p.reynolds = 1000;
  p.linear_fix = 0;
  p.max_iterations = 300;
  AirfoilSolver solver;
  solver.initialize(p, jk.grid);
  while (!solver.finished()) solver.advance();
  const Diagnostics d = solver.diagnostics();
  std::cout << "Re 1000 Joukowski: residual " << solver.residual() << ", cd " << d.at("cd") << " = "
            << d.at("cd_pressure") << " + " << d.at("cd_friction") << "\n";
  EXPECT_LT(solver.residual(), 1e-4);
  EXPECT_GT(d.at("cd_friction"), 0.05);  // flat plate at Re 1000: 2 × 1.328/√Re = 0.084
  EXPECT_LT(d.at("cd_friction"), 0.2);
  EXPECT_NEAR(d.at("cl"), 0.0, 0.02);  // symmetric section at zero incidence
}

TEST(AirfoilSolver, BadParametersAreInputErrors) {
  const auto jk = testing::joukowski_grid(32, 16, -0.1, 0.05, 10);
  AirfoilSolver solver;
  AirfoilParameters p = inviscid(0.95, 0);
  EXPECT_THROW(solver.initialize(p, jk.grid), InputError);
  p = inviscid(0.5, 0);
  p.equations = Equations::kNavierStokes;
  p.reynolds = 0;
  EXPECT_THROW(solver.initialize(p, jk.grid), InputError);
  EXPECT_THROW(solver.initialize(inviscid(0.5, 0), testing::joukowski_grid(4, 4, -0.1, 0, 10).grid),
               InputError);
}

TEST(AirfoilSolver, UnknownSmootherListsTheRegisteredOnes) {
  const auto jk = testing::joukowski_grid(32, 16, -0.1, 0.05, 10);
  AirfoilParameters p = inviscid(0.5, 0);
  p.smoother = "lu_sgs";
  AirfoilSolver solver;
  try {
    solver.initialize(p, jk.grid);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("unknown airfoil smoother 'lu_sgs'"), std::string::npos) << what;
    EXPECT_NE(what.find("lusgs"), std::string::npos) << what;
  }
}

// The case files through the CLI, shortened; bad input exits with 2.
TEST(AirfoilCli, CaseFilesRunAndWriteTheSurface) {
  for (const char* name : {"naca0012_euler", "naca0012_laminar", "joukowski_euler"}) {
    const auto dir = surrox::testing::scratch_dir() / name;
    std::string out;
    ASSERT_EQ(
        surrox::testing::run_surrox(
            "run " +
                (surrox::testing::source_dir() / "cases/airfoil" / (std::string(name) + ".yaml"))
                    .string() +
                " -o " + dir.string() +
                " --set solver.max_iterations=20 --set solver.mesh.cells_around=64"
                " --set solver.mesh.cells_normal=32 --set solver.mesh.first_cell_height=2e-3"
                " --set output.vtk=false",
            &out),
        0)
        << out;
    std::ifstream summary(dir / "summary.json");
    const auto json = nlohmann::json::parse(summary);
    const auto& d = json.at("results").at("diagnostics");
    for (const char* key : {"cl", "cd", "cd_pressure", "cd_friction", "cm", "iterations",
                            "final_residual", "converged"})
      EXPECT_TRUE(d.contains(key)) << name << ": " << key;
    EXPECT_EQ(d.at("iterations").get<double>(), 20.0);
    // 20 iterations cannot converge: the run says so instead of looking like a success.
    EXPECT_EQ(d.at("converged").get<double>(), 0.0) << name;
    EXPECT_EQ(json.at("status"), "not_converged") << name;
    EXPECT_FALSE(json.at("results").at("converged").get<bool>()) << name;
    EXPECT_NE(out.find("without converging"), std::string::npos) << name << ": no warning in\n"
                                                                 << out;
    EXPECT_TRUE(std::filesystem::exists(dir / "surface.csv")) << name;
    EXPECT_TRUE(std::filesystem::exists(dir / "surface.vtp")) << name;
    EXPECT_TRUE(std::filesystem::exists(dir / "monitor.csv")) << name;
  }
}

TEST(AirfoilCli, InitialRestartWarmStartsFromACheckpoint) {
  const std::string euler =
      (surrox::testing::source_dir() / "cases/airfoil/naca0012_euler.yaml").string();
  // LU-SGS: with line_implicit (the case files' default) the cold run converges at one fast
  // rate and the warm start saves nothing at 8 orders here (64 × 32: cold 112 at M 0.5, 116 at
  // M 0.55; warm 125, docs/validation/airfoil.md); this test is of the restart itself.
  const std::string small =
      " --set solver.mesh.cells_around=64 --set solver.mesh.cells_normal=32 --set output.vtk=false"
      " --set \"solver.smoother={type: lusgs}\"";
  const auto first = surrox::testing::scratch_dir() / "first",
             second = surrox::testing::scratch_dir() / "second";
  std::string out;
  ASSERT_EQ(surrox::testing::run_surrox("run " + euler + " -o " + first.string() + small, &out), 0)
      << out;
  ASSERT_TRUE(std::filesystem::exists(first / "checkpoint.h5"));
  // From the converged M = 0.5 state to M = 0.55: fewer iterations than from the free stream.
  ASSERT_EQ(surrox::testing::run_surrox("run " + euler + " -o " + second.string() + small +
                                            " --set solver.mach=0.55 --set solver.initial=restart"
                                            " --set solver.restart_file=" +
                                            (first / "checkpoint.h5").string(),
                                        &out),
            0)
      << out;
  auto read = [](const std::filesystem::path& dir) {
    std::ifstream in(dir / "summary.json");
    return nlohmann::json::parse(in).at("results").at("diagnostics");
  };
  const auto a = read(first), b = read(second);
  EXPECT_EQ(a.at("converged").get<double>(), 1.0);
  EXPECT_EQ(b.at("converged").get<double>(), 1.0);
  std::cout << "cold start " << a.at("iterations") << " iterations, warm start "
            << b.at("iterations") << "\n";
  EXPECT_LT(b.at("iterations").get<double>(), a.at("iterations").get<double>());
  // A checkpoint of another grid is bad input.
  EXPECT_EQ(surrox::testing::run_surrox(
                "run " + euler + " -o " + second.string() +
                    " --set solver.mesh.cells_around=32 --set solver.mesh.cells_normal=32"
                    " --set solver.initial=restart --set solver.restart_file=" +
                    (first / "checkpoint.h5").string(),
                &out),
            2)
      << out;
}

TEST(AirfoilCli, BadInputExitsWithTwo) {
  const std::string euler =
      (surrox::testing::source_dir() / "cases/airfoil/naca0012_euler.yaml").string();
  const std::string laminar =
      (surrox::testing::source_dir() / "cases/airfoil/naca0012_laminar.yaml").string();
  const auto dir = surrox::testing::scratch_dir();
  std::string out;
  EXPECT_EQ(surrox::testing::run_surrox(
                "run " + euler + " -o " + dir.string() + " --set solver.mach=0.95", &out),
            2)
      << out;
  EXPECT_NE(out.find("solver.mach"), std::string::npos) << out;
  EXPECT_EQ(surrox::testing::run_surrox(
                "run " + euler + " -o " + dir.string() + " --set solver.equations=stokes", &out),
            2)
      << out;
  EXPECT_EQ(surrox::testing::run_surrox(
                "run " + euler + " -o " + dir.string() + " --set solver.limiter=superbee", &out),
            2)
      << out;
  EXPECT_EQ(surrox::testing::run_surrox(
                "run " + euler + " -o " + dir.string() + " --set solver.cfl=-1", &out),
            2)
      << out;
  EXPECT_EQ(
      surrox::testing::run_surrox(
          "run " + euler + " -o " + dir.string() + " --set solver.smoother.type=lu_sgs", &out),
      2)
      << out;
  EXPECT_NE(out.find("lusgs"), std::string::npos) << out;
  // Navier–Stokes without a Reynolds number.
  std::ofstream(dir / "no_re.yaml") << "solver:\n  type: airfoil\n  equations: navier_stokes\n";
  EXPECT_EQ(surrox::testing::run_surrox(
                "run " + (dir / "no_re.yaml").string() + " -o " + dir.string(), &out),
            2)
      << out;
  EXPECT_NE(out.find("solver.reynolds"), std::string::npos) << out;
  EXPECT_EQ(surrox::testing::run_surrox(
                "run " + laminar + " -o " + dir.string() + " --set solver.reynolds=0", &out),
            2)
      << out;
}

}  // namespace
}  // namespace surrox::solvers::airfoil
