// ctest-labels: unit
// ctest-libraries: surrox_solvers
// equations: rans through the case file and the CLI: the shipped NACA 0012 RANS case runs
// (shortened by --set) and reports the ν̃ residual; the shipped flat plate (mesh type
// flat_plate) gives TMR's skin friction at x = 0.97 within 1 %;
// bad input exits with 2 naming the key: a turbulence section with other equations, a
// non-positive ν̃ ratio, an unknown model, rans without a Reynolds number, an unknown mesh type.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "shipped_rans_run.hpp"
#include "support/test_paths.hpp"

namespace {

TEST(RansCase, ShortenedNaca0012RunsThroughTheCli) {
  nlohmann::json summary;
  ASSERT_TRUE(surrox::testing::run_shipped_rans(
      "--set solver.max_iterations=20 --set solver.mesh.cells_around=64"
      " --set solver.mesh.cells_normal=48 --set solver.mesh.first_cell_height=2e-4"
      " --set solver.mesh.farfield_radius=15 --set output.vtk=false",
      summary));
  EXPECT_EQ(summary.dump().find("nan"), std::string::npos);
  EXPECT_NE(summary.dump().find("res_nu_tilde"), std::string::npos) << summary.dump();
}

// A RANS case with only the required keys (and the shipped case's section, flow and angle) gets
// the validated settings of cases/airfoil/naca0012_rans.yaml from the solver's defaults by
// equations: the same resolved solver section, and the same iterates.
TEST(RansCase, ABareCaseGetsTheShippedCasesValidatedSettings) {
  const auto source = surrox::testing::source_dir();
  const auto dir = surrox::testing::scratch_dir();
  std::ofstream(dir / "bare.yaml") << "solver:\n  type: airfoil\n  equations: rans\n  mach: 0.15\n"
                                      "  alpha_deg: 10.0\n  reynolds: 6.0e6\n  mesh:\n"
                                      "    airfoil: {type: selig, file: "
                                   << (source / "cases/airfoil/naca0012_tmr.dat").string() << "}\n";
  const std::string shipped = (source / "cases/airfoil/naca0012_rans.yaml").string();
  const std::string bare = (dir / "bare.yaml").string();
  // The resolved solver section as JSON: key order and number spelling (1e-8, 1.0e-8) aside.
  std::function<nlohmann::json(const YAML::Node&)> as_json = [&](const YAML::Node& node) {
    nlohmann::json j;
    if (node.IsMap()) {
      for (const auto& entry : node) j[entry.first.Scalar()] = as_json(entry.second);
    } else if (node.IsSequence()) {
      for (const auto& item : node) j.push_back(as_json(item));
    } else {
      const std::string text = node.Scalar();
      char* end = nullptr;
      const double number = std::strtod(text.c_str(), &end);
      j = !text.empty() && *end == '\0' ? nlohmann::json(number) : nlohmann::json(text);
    }
    return j;
  };
  auto resolved_solver = [&](const std::string& file) {
    std::string out;
    EXPECT_EQ(surrox::testing::run_surrox("validate " + file + " --log-level off", &out), 0) << out;
    return as_json(YAML::Load(out)["solver"]);
  };
  const nlohmann::json from_bare = resolved_solver(bare);
  EXPECT_EQ(from_bare, resolved_solver(shipped));
  EXPECT_EQ(from_bare["turbulence"]["convection"], "second_order");
  EXPECT_EQ(from_bare["mesh"]["wake_growth"], 1.2);
  EXPECT_EQ(from_bare["turbulence"]["cfl"], 20);
  // Twenty cycles of both on a small grid: the same forces to the last bit.
  const std::string small =
      " --log-level warn --set solver.max_iterations=20 --set solver.mesh.cells_around=64"
      " --set solver.mesh.cells_normal=48 --set solver.mesh.first_cell_height=2e-4"
      " --set solver.mesh.farfield_radius=15 --set output.vtk=false --set output.hdf5=false";
  std::string out;
  ASSERT_EQ(
      surrox::testing::run_surrox("run " + bare + " -o " + (dir / "a").string() + small, &out), 0)
      << out;
  ASSERT_EQ(
      surrox::testing::run_surrox("run " + shipped + " -o " + (dir / "b").string() + small, &out),
      0)
      << out;
  auto forces = [](const std::filesystem::path& run) {
    std::ifstream in(run / "summary.json");
    const auto d = nlohmann::json::parse(in)["results"]["diagnostics"];
    return std::make_pair(d["cl"].get<double>(), d["cd"].get<double>());
  };
  EXPECT_EQ(forces(dir / "a"), forces(dir / "b"));
}

// cases/airfoil/flat_plate_rans.yaml as shipped (16 + 48 by 48 cells, stopped by the Cauchy test
// on the plate's drag after ~750 cycles, ≈ 2 s): issue 15's validation 1, Cf(0.97) within 1 % of
// TMR's finest-grid SA value (measured +0.65 %; the grid study of docs/validation/rans.md gives
// +0.89 % on the two finer grids, and its coarser grid +3.1 %, so a lost model term or a wrong
// boundary fails it). The plate's drag is its friction: cd_friction = Σ Cf Δx over the wall faces
// (chord 1: the Reynolds number is per unit length), and the symmetry plane ahead of x = 0 has
// no friction.
TEST(RansCase, FlatPlateCaseFileIsWithinOnePercentOfTmr) {
  const std::string plate =
      (surrox::testing::source_dir() / "cases/airfoil/flat_plate_rans.yaml").string();
  const auto dir = surrox::testing::scratch_dir();
  std::string out;
  ASSERT_EQ(surrox::testing::run_surrox(
                "run " + plate + " -o " + dir.string() + " --set output.vtk=false", &out),
            0)
      << out;
  std::ifstream csv(dir / "surface.csv");
  ASSERT_TRUE(csv) << out;
  std::string line;
  std::getline(csv, line);
  ASSERT_EQ(line, "i,x_over_c,y_over_c,cp,cf,upper");
  std::vector<double> x, cf;
  while (std::getline(csv, line)) {
    std::istringstream row(line);
    std::string field[6];
    for (auto& f : field) std::getline(row, f, ',');
    x.push_back(std::stod(field[1]));
    cf.push_back(std::stod(field[4]));
  }
  ASSERT_EQ(x.size(), 64u);
  // Face nodes from the centres, starting at the inflow x = −0.33.
  std::vector<double> node{-0.33};
  for (double xc : x) node.push_back(2 * xc - node.back());
  EXPECT_NEAR(node[16], 0.0, 1e-7);  // surface.csv has 10 significant digits
  EXPECT_NEAR(node.back(), 2.0, 1e-7);
  double friction = 0, cf097 = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i < 16) {
      EXPECT_LT(std::abs(cf[i]), 1e-12) << "symmetry face " << i;
    }
    friction += cf[i] * (node[i + 1] - node[i]);
    if (i > 0 && x[i - 1] <= 0.97 && x[i] > 0.97)
      cf097 = cf[i - 1] + (0.97 - x[i - 1]) / (x[i] - x[i - 1]) * (cf[i] - cf[i - 1]);
  }
  constexpr double kTmrCf097 = 0.00270562;  // CFL3D, 545 × 385 (FUN3D 0.00270540)
  EXPECT_NEAR(cf097, kTmrCf097, 0.01 * kTmrCf097);
  std::ifstream in(dir / "summary.json");
  const auto result = nlohmann::json::parse(in)["results"]["airfoil"];
  EXPECT_NEAR(result["cd_friction"].get<double>(), friction, 1e-6 * friction);
  EXPECT_LT(std::abs(result["cd_pressure"].get<double>()), 1e-6);
  EXPECT_EQ(result.count("airfoil_thickness"), 0u) << "a plate has no airfoil shape descriptors";
  EXPECT_EQ(result["converged"].get<double>(), 1.0) << "the Cauchy test on cd stopped the run";
}

TEST(RansCase, BadInputExitsTwo) {
  const std::string rans =
      (surrox::testing::source_dir() / "cases/airfoil/naca0012_rans.yaml").string();
  const auto dir = surrox::testing::scratch_dir();
  std::string out;
  EXPECT_EQ(surrox::testing::run_surrox(
                "run " + rans + " -o " + dir.string() + " --set solver.turbulence.nu_tilde_ratio=0",
                &out),
            2)
      << out;
  EXPECT_NE(out.find("solver.turbulence.nu_tilde_ratio"), std::string::npos) << out;
  EXPECT_EQ(surrox::testing::run_surrox(
                "run " + rans + " -o " + dir.string() + " --set solver.turbulence.model=sst", &out),
            2)
      << out;
  EXPECT_NE(out.find("sa_neg"), std::string::npos) << out;
  // An unknown ν̃ convection scheme names the choices; a wake growth ratio not above 1.
  EXPECT_EQ(surrox::testing::run_surrox("run " + rans + " -o " + dir.string() +
                                            " --set solver.turbulence.convection=third_order",
                                        &out),
            2)
      << out;
  EXPECT_NE(out.find("second_order"), std::string::npos) << out;
  EXPECT_EQ(surrox::testing::run_surrox(
                "run " + rans + " -o " + dir.string() + " --set solver.mesh.wake_growth=0.5", &out),
            2)
      << out;
  EXPECT_NE(out.find("solver.mesh.wake_growth"), std::string::npos) << out;
  // An unknown grid type names the known ones; an O-grid key in a flat-plate section.
  EXPECT_EQ(surrox::testing::run_surrox(
                "run " + rans + " -o " + dir.string() + " --set solver.mesh.type=c_grid", &out),
            2)
      << out;
  EXPECT_NE(out.find("flat_plate"), std::string::npos) << out;
  EXPECT_NE(out.find("o_grid"), std::string::npos) << out;
  const std::string plate =
      (surrox::testing::source_dir() / "cases/airfoil/flat_plate_rans.yaml").string();
  EXPECT_EQ(
      surrox::testing::run_surrox(
          "run " + plate + " -o " + dir.string() + " --set solver.mesh.cells_around=64", &out),
      2)
      << out;
  EXPECT_NE(out.find("solver.mesh.cells_around"), std::string::npos) << out;
  // A turbulence section in an Euler case.
  std::ofstream(dir / "euler_sa.yaml")
      << "solver:\n  type: airfoil\n  equations: euler\n  turbulence:\n    model: sa\n";
  EXPECT_EQ(surrox::testing::run_surrox(
                "run " + (dir / "euler_sa.yaml").string() + " -o " + dir.string(), &out),
            2)
      << out;
  EXPECT_NE(out.find("solver.turbulence"), std::string::npos) << out;
  EXPECT_NE(out.find("equations: rans"), std::string::npos) << out;
  // RANS without a Reynolds number.
  std::ofstream(dir / "no_re.yaml") << "solver:\n  type: airfoil\n  equations: rans\n";
  EXPECT_EQ(surrox::testing::run_surrox(
                "run " + (dir / "no_re.yaml").string() + " -o " + dir.string(), &out),
            2)
      << out;
  EXPECT_NE(out.find("solver.reynolds"), std::string::npos) << out;
}

}  // namespace
