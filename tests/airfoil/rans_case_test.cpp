// ctest-labels: unit
// ctest-libraries: surrox_solvers
// equations: rans through the case file and the CLI: the shipped NACA 0012 RANS case runs
// (shortened by --set) and reports the ν̃ residual; bad input exits with 2 naming the key: a
// turbulence section with other equations, a non-positive ν̃ ratio, an unknown model, rans
// without a Reynolds number.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/test_paths.hpp"

namespace {

TEST(RansCase, ShortenedNaca0012RunsThroughTheCli) {
  const std::string rans =
      (surrox::testing::source_dir() / "cases/airfoil/naca0012_rans.yaml").string();
  const auto dir = surrox::testing::scratch_dir();
  std::string out;
  ASSERT_EQ(surrox::testing::run_surrox(
                "run " + rans + " -o " + dir.string() +
                    " --set solver.max_iterations=20 --set solver.mesh.cells_around=64"
                    " --set solver.mesh.cells_normal=48 --set solver.mesh.first_cell_height=2e-4"
                    " --set solver.mesh.farfield_radius=15"
                    " --set output.vtk=false",
                &out),
            0)
      << out;
  std::ifstream in(dir / "summary.json");
  ASSERT_TRUE(in) << out;
  const auto summary = nlohmann::json::parse(in);
  EXPECT_EQ(summary.dump().find("nan"), std::string::npos);
  EXPECT_NE(summary.dump().find("res_nu_tilde"), std::string::npos) << summary.dump();
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
