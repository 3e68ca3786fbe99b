// ctest-labels: unit regression
// ctest-libraries: surrox_cli
// The QG solver: inviscid, unforced runs conserve energy and enstrophy to the time-stepping
// error, which falls at third order with Δt (SSP-RK3); the energy budget of a forced, viscous
// run closes (E(T) − E(0) = ∫(P − D_r − D_ν) dt); bitwise restart; bad input exits 2.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "io/hdf5_checkpoint.hpp"
#include "qg/qg_checks.hpp"

namespace surrox::solvers::qg {
namespace {

using testing_support::make_qg;

// Random vorticity (zero on the walls), no β, no forcing, no dissipation, free-slip walls.
std::vector<std::string> inviscid(double dt) {
  return {"solver.units=dimensional",
          "solver.beta=0",
          "solver.viscosity=0",
          "solver.wind_stress=0",
          "solver.drag=0",
          "solver.initial=random",
          "solver.amplitude=20",
          "solver.cells=[32, 64]",
          "solver.end_time=1",
          "solver.dt=" + std::to_string(dt)};
}

TEST(QgSolver, InviscidRunsConserveEnergyAndEnstrophyAtThirdOrderInDt) {
  double previous_energy = 0, previous_enstrophy = 0;
  for (double dt : {0.004, 0.002, 0.001}) {
    auto solver = make_qg(inviscid(dt));
    const Diagnostics start = solver->instantaneous();
    double largest_advection = 0;
    while (!solver->finished()) {
      solver->advance();
      // Σω J(ψ, ω) = 0 at every step: Arakawa with ω = 0 on the walls.
      largest_advection =
          std::max(largest_advection, std::fabs(solver->instantaneous().at("enstrophy_advection")));
    }
    const Diagnostics end = solver->instantaneous();
    const double energy = std::fabs(end.at("energy") / start.at("energy") - 1);
    const double enstrophy = std::fabs(end.at("enstrophy") / start.at("enstrophy") - 1);
    std::cout << "dt " << dt << ": relative drift of energy " << energy << ", of enstrophy "
              << enstrophy << "; max |sum omega J| / Z "
              << largest_advection / start.at("enstrophy");
    EXPECT_LT(largest_advection, 1e-11 * start.at("enstrophy"));
    if (previous_energy > 0) {
      const double pe = std::log2(previous_energy / energy);
      const double pz = std::log2(previous_enstrophy / enstrophy);
      std::cout << ", orders " << pe << ", " << pz;
      EXPECT_GT(pe, 2.7);
      EXPECT_GT(pz, 2.7);
    }
    std::cout << "\n";
    previous_energy = energy, previous_enstrophy = enstrophy;
    EXPECT_GT(solver->step(), 100);
  }
  EXPECT_LT(previous_energy, 1e-6);
}

// The budget terms are exact for the semi-discrete equations; what remains is the time
// discretisation (RK3 steps, trapezoid integrals of the terms): it falls at second order.
TEST(QgSolver, EnergyBudgetOfTheDoubleGyreCloses) {
  std::map<std::string, double> residuals;
  for (const char* boundary : {"free_slip", "no_slip"})
    for (const char* cfl : {"0.8", "0.4"}) {
      auto solver =
          make_qg({"solver.cells=[32, 64]", "solver.end_time=0.25", "solver.drag=10",
                   std::string("solver.boundary=") + boundary, std::string("solver.cfl=") + cfl});
      while (!solver->finished()) solver->advance();
      const Diagnostics d = solver->diagnostics();
      std::cout << boundary << ", cfl " << cfl << ": mean wind input " << d.at("mean_wind_input")
                << ", drag " << d.at("mean_drag_dissipation") << ", viscous "
                << d.at("mean_viscous_dissipation") << ", dE/dt " << d.at("mean_energy_change_rate")
                << ", residual " << d.at("budget_residual") << "\n";
      EXPECT_GT(d.at("mean_drag_dissipation"), 0.01 * d.at("mean_wind_input"));
      EXPECT_GT(d.at("mean_viscous_dissipation"), 0.01 * d.at("mean_wind_input"));
      EXPECT_LT(std::fabs(d.at("budget_residual")), 2e-3) << boundary;
      residuals[std::string(boundary) + cfl] = std::fabs(d.at("budget_residual"));
      if (std::string(boundary) == "free_slip") {
        EXPECT_LT(std::fabs(d.at("enstrophy_advection")), 1e-10 * d.at("enstrophy_wind"));
      }
    }
  for (const char* boundary : {"free_slip", "no_slip"})
    EXPECT_GT(residuals[std::string(boundary) + "0.8"] / residuals[std::string(boundary) + "0.4"],
              3.0)
        << boundary;
}

TEST(QgSolver, RestartFromACheckpointIsBitwise) {
  const std::vector<std::string> c = {"solver.cells=[32, 64]", "solver.boundary=no_slip",
                                      "solver.initial=random", "solver.average_from=0.001"};
  auto reference = make_qg(c);
  for (int n = 0; n < 40; ++n) reference->advance();
  auto first = make_qg(c);
  for (int n = 0; n < 20; ++n) first->advance();
  io::Hdf5Checkpoint saved;
  first->save_state(saved);
  const auto path = testing::scratch_dir() / "qg_checkpoint.h5";
  saved.write(path, testing::runtime().comm());
  first.reset();
  auto resumed = make_qg(c);
  resumed->load_state(io::Hdf5Checkpoint::read(path, testing::runtime().comm()));
  for (int n = 0; n < 20; ++n) resumed->advance();
  EXPECT_EQ(resumed->time(), reference->time());
  for (const char* name : {"psi", "omega"}) {
    const auto a = testing_support::host_field(*reference, name);
    const auto b = testing_support::host_field(*resumed, name);
    for (std::size_t n = 0; n < a.size(); ++n) ASSERT_EQ(a.data()[n], b.data()[n]) << name;
  }
  const Diagnostics da = reference->diagnostics(), db = resumed->diagnostics();
  for (const auto& [name, value] : da) EXPECT_EQ(value, db.at(name)) << name;
}

TEST(QgSolver, BadInputExitsWithCodeTwo) {
  const std::string base = "run " + (testing::source_dir() / "cases/qg/double_gyre.yaml").string() +
                           " -o " + (testing::scratch_dir() / "bad").string() + " --set ";
  for (const char* bad : {"solver.reynolds=0", "solver.rossby=-1", "solver.cfl=1.5",
                          "\"solver.cells=[2, 8]\"", "solver.poisson.solver=multigrid"}) {
    std::string out;
    EXPECT_EQ(testing::run_surrox(base + bad, &out), 2) << bad << "\n" << out;
    EXPECT_NE(out.find("solver"), std::string::npos) << out;
  }
}

// A fixed time step far above the stable one blows the run up: exit 1 with the step, time and
// what to change, and the checkpoint of the last good state stays; a restart from it with the
// adaptive step runs on.
TEST(QgSolver, BlowUpExitsOneAndKeepsTheLastGoodCheckpoint) {
  const auto dir = testing::scratch_dir();
  const std::string base = "run " + (testing::source_dir() / "cases/qg/double_gyre.yaml").string() +
                           " --set \"solver.cells=[16, 32]\" --set output.hdf5=false";
  std::string out;
  EXPECT_EQ(testing::run_surrox(base + " -o " + (dir / "blow").string() +
                                    " --set solver.dt=0.02 --set solver.end_time=5"
                                    " --set output.checkpoint_interval=3",
                                &out),
            1)
      << out;
  EXPECT_NE(out.find("blew up at step"), std::string::npos) << out;
  EXPECT_NE(out.find("reduce solver.cfl"), std::string::npos) << out;
  ASSERT_TRUE(std::filesystem::exists(dir / "blow/checkpoint.h5"));
  EXPECT_FALSE(std::filesystem::exists(dir / "blow/monitor.csv"));  // no partial file as final
  EXPECT_EQ(
      testing::run_surrox(base + " -o " + (dir / "again").string() + " --restart " +
                              (dir / "blow/checkpoint.h5").string() + " --set solver.end_time=1",
                          &out),
      0)
      << out;
}

}  // namespace
}  // namespace surrox::solvers::qg
