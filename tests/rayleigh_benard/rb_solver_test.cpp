// ctest-labels: unit regression
// ctest-libraries: surrox_cli
// Rayleigh–Bénard solver: incompressibility after every projection (uniform and stretched
// grids), conduction, the grid-independent initial field, input checks, bitwise restart,
// output layout and landing on the driver's output times.
#include "solvers/rayleigh_benard/rb_solver.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "apps/run_case.hpp"
#include "io/case_file.hpp"
#include "io/hdf5_checkpoint.hpp"
#include "rayleigh_benard/rb_checks.hpp"
#include "support/test_paths.hpp"

namespace surrox::solvers::rayleigh_benard {
namespace {

io::CaseFile rb_case(std::vector<std::string> overrides) {
  return io::load_case_text("solver: {type: rayleigh_benard}\n", "rb.yaml", apps::run_case_schema(),
                            overrides);
}

std::unique_ptr<RayleighBenardSolver<2>> make_solver(const std::vector<std::string>& overrides) {
  const io::CaseFile c = rb_case(overrides);
  auto solver = std::make_unique<RayleighBenardSolver<2>>();
  solver->initialize(c.root.section("solver"), surrox::testing::runtime());
  return solver;
}

// A vigorous flow quickly: Ra = 1e5 from a large random perturbation on a small grid.
const std::vector<std::string> kShort = {"solver.rayleigh=1e5", "solver.cells=[64, 16]",
                                         "solver.amplitude=0.2", "solver.end_time=4"};

TEST(RayleighBenard, DivergenceAfterEveryProjectionIsRoundOff) {
  auto solver = make_solver(kShort);
  double worst = 0;
  while (!solver->finished()) {
    solver->advance();
    const double d = solver->instantaneous().at("max_divergence");  // max|∇·u| h / U
    worst = std::max(worst, d);
    ASSERT_LT(d, 1e-10) << "step " << solver->step();
  }
  EXPECT_GT(solver->instantaneous().at("u_rms"), 1e-3);  // the flow did start
  std::cout << "max relative divergence over the run: " << worst << "\n";
}

// A stretched grid (γ = 1.5: wall cells 0.30 of a uniform cell, the middle one 1.66): the
// variable-coefficient Poisson matrix keeps the projection exact.
TEST(RayleighBenard, StretchedGridDivergenceAfterEveryProjectionIsRoundOff) {
  auto overrides = kShort;
  overrides.push_back("solver.stretching=1.5");
  auto solver = make_solver(overrides);
  double worst = 0;
  while (!solver->finished()) {
    solver->advance();
    const double d = solver->instantaneous().at("max_divergence");
    worst = std::max(worst, d);
    ASSERT_LT(d, 1e-10) << "step " << solver->step();
  }
  EXPECT_GT(solver->instantaneous().at("u_rms"), 1e-3);
  std::cout << "stretched: max relative divergence over the run: " << worst << "\n";
}

TEST(RayleighBenard, IterativePressureSolversAlsoMeetTheDivergenceBound) {
  auto overrides = kShort;
  overrides.push_back("solver.end_time=1");
  overrides.push_back("solver.pressure.solver=ksp");
  overrides.push_back("solver.pressure.ksp_type=cg");
  overrides.push_back("solver.pressure.pc_type=gamg");
  auto solver = make_solver(overrides);
  while (!solver->finished()) {
    solver->advance();
    ASSERT_LT(solver->instantaneous().at("max_divergence"), 1e-10) << "step " << solver->step();
  }
}

TEST(RayleighBenard, NusseltNumbersAreOneForConduction) {
  for (const char* stretching : {"0", "2"}) {
    auto solver =
        make_solver({"solver.rayleigh=1000", "solver.cells=[32, 16]", "solver.amplitude=0",
                     std::string("solver.stretching=") + stretching});
    for (int n = 0; n < 5; ++n) solver->advance();
    for (const char* name : {"nu_bottom", "nu_top", "nu_volume", "nu_kinetic", "nu_thermal"})
      EXPECT_NEAR(solver->instantaneous().at(name), 1.0, 1e-12)
          << name << ", stretching " << stretching;
    EXPECT_LT(solver->instantaneous().at("u_rms"), 1e-13) << "stretching " << stretching;
  }
}

// The initial perturbation is a function of the position: a grid three times finer (whose
// every third centre is a coarse centre) starts from the same values there.
TEST(RayleighBenard, InitialFieldIsTheSameOnEveryGrid) {
  auto coarse = make_solver({"solver.cells=[32, 16]", "solver.amplitude=0.1"});
  auto fine = make_solver({"solver.cells=[96, 48]", "solver.amplitude=0.1"});
  auto bc =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), coarse->state().fields.at("b"));
  auto bf = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fine->state().fields.at("b"));
  double worst = 0, spread = 0;
  for (long k = 0; k < 16; ++k)
    for (long i = 0; i < 32; ++i) {  // ghosted arrays: owned cell (k, i) at (k + 1, i + 1)
      const double c = bc(0, k + 1, i + 1), f = bf(0, 3 * k + 2, 3 * i + 2);
      const double z = (k + 0.5) / 16;
      worst = std::max(worst, std::fabs(c - f));
      spread = std::max(spread, std::fabs(c - (0.5 - z)));
    }
  EXPECT_LT(worst, 1e-14);
  EXPECT_GT(spread, 0.01);  // the perturbation is there
}

// The driver calls limit_step_to(next output time) before every step.
TEST(RayleighBenard, TimeStepsLandOnOutputTimesAndTheEnd) {
  auto solver = make_solver({"solver.rayleigh=1e4", "solver.cells=[32, 16]", "solver.end_time=0.7",
                             "solver.max_dt=0.03"});
  std::vector<double> times;
  double next = 0.25;
  while (!solver->finished()) {
    solver->limit_step_to(next);
    times.push_back(solver->advance().time);
    if (times.back() >= next) next += 0.25;
  }
  EXPECT_EQ(solver->time(), 0.7);
  for (double t : {0.25, 0.5})
    EXPECT_NE(std::find(times.begin(), times.end(), t), times.end()) << t;
}

TEST(RayleighBenard, RestartFromACheckpointIsBitwise) {
  const auto overrides = kShort;
  auto reference = make_solver(overrides);
  for (int n = 0; n < 40; ++n) reference->advance();

  auto first = make_solver(overrides);
  for (int n = 0; n < 20; ++n) first->advance();
  io::Hdf5Checkpoint saved;
  first->save_state(saved);
  const auto path = surrox::testing::scratch_dir() / "rb_checkpoint.h5";
  saved.write(path, surrox::testing::runtime().comm());
  first.reset();

  auto resumed = make_solver(overrides);
  resumed->load_state(io::Hdf5Checkpoint::read(path, surrox::testing::runtime().comm()));
  EXPECT_EQ(resumed->step(), 20);
  for (int n = 0; n < 20; ++n) resumed->advance();
  EXPECT_EQ(resumed->time(), reference->time());
  for (const char* name : {"u", "w", "b", "p"}) {
    const Field3 a = reference->state().fields.at(name), b = resumed->state().fields.at(name);
    auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
    auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
    ASSERT_EQ(ha.size(), hb.size());
    std::size_t differing = 0;
    for (std::size_t n = 0; n < ha.size(); ++n) differing += ha.data()[n] != hb.data()[n];
    EXPECT_EQ(differing, 0u) << name;
  }
}

// Cell data on the grid of cell corners: an image when uniform, a structured grid whose
// points are the tanh-mapped faces when stretched.
TEST(RayleighBenard, OutputIsCellDataPAndBAndUAndWOnTheCornerGrid) {
  auto solver =
      make_solver({"solver.rayleigh=1e4", "solver.cells=[16, 8]", "solver.length=[2, 1]"});
  solver->advance();
  const io::MeshData mesh = solver->output_mesh();
  EXPECT_EQ(mesh.kind, io::MeshKind::kImage);
  EXPECT_EQ(mesh.extent, (std::array<long, 6>{0, 16, 0, 8, 0, 0}));
  EXPECT_EQ(mesh.origin, (std::array<double, 3>{0, 0, 0}));
  EXPECT_DOUBLE_EQ(mesh.spacing[0], 0.125);
  EXPECT_DOUBLE_EQ(mesh.spacing[1], 0.125);
  EXPECT_TRUE(mesh.point_data.empty());
  std::vector<std::string> names;
  for (const auto& a : mesh.cell_data) names.push_back(a.name);
  EXPECT_EQ(names, (std::vector<std::string>{"p", "b", "u", "w"}));
  for (const auto& a : mesh.cell_data) EXPECT_EQ(a.tuples(), 128u);

  auto stretched = make_solver({"solver.rayleigh=1e4", "solver.cells=[16, 8]",
                                "solver.length=[2, 1]", "solver.stretching=1.5"});
  const io::MeshData grid = stretched->output_mesh();
  EXPECT_EQ(grid.kind, io::MeshKind::kStructured);
  EXPECT_EQ(grid.extent, (std::array<long, 6>{0, 16, 0, 8, 0, 0}));
  ASSERT_EQ(grid.points.extent(0), 17u * 9u);
  for (long k = 0; k <= 8; ++k) {
    const double z = 0.5 * (1 + std::tanh(1.5 * (2.0 * k / 8 - 1)) / std::tanh(1.5));
    EXPECT_NEAR(grid.points(17 * k + 3, 1), z, 1e-15) << k;
    EXPECT_DOUBLE_EQ(grid.points(17 * k + 3, 0), 3 * 0.125);
  }
  for (const auto& a : grid.cell_data) EXPECT_EQ(a.tuples(), 128u);
}

TEST(RayleighBenard, RejectsBadInputWithExitCodeTwo) {
  EXPECT_THROW(rb_case({"solver.rayleigh=0"}), InputError);
  EXPECT_THROW(rb_case({"solver.rayleigh=-5"}), InputError);
  EXPECT_THROW(rb_case({"solver.cfl=1.5"}), InputError);
  EXPECT_THROW(rb_case({"solver.cells=[0, 16]"}), InputError);
  EXPECT_THROW(rb_case({"solver.stretching=-1"}), InputError);
  EXPECT_THROW(rb_case({"solver.output_interval=1"}), InputError);  // removed: output.interval
  EXPECT_THROW(make_solver({"solver.cells=[2, 16]"}), InputError);
  EXPECT_THROW(make_solver({"solver.pressure.solver=ksp", "solver.pressure.pc_type=no_such_pc"}),
               InputError);
  // PETSc options with the FFT pressure solve (the 2D default) would be ignored: an error.
  EXPECT_THROW(make_solver({"solver.pressure.pc_type=gamg"}), InputError);
  EXPECT_THROW(make_solver({"solver.pressure.options=-pressure_ksp_monitor"}), InputError);
  const auto dir = surrox::testing::scratch_dir();
  for (const std::string& bad :
       {std::string("solver.rayleigh=0"), std::string("solver.cells=[64,-1]"),
        std::string("solver.cfl=2")}) {
    std::string out;
    const int code = surrox::testing::run_surrox(
        "run " + (surrox::testing::source_dir() / "cases/rayleigh_benard/onset.yaml").string() +
            " -o " + (dir / "bad").string() + " --set " + bad,
        &out);
    EXPECT_EQ(code, 2) << bad << "\n" << out;
    EXPECT_NE(out.find("solver."), std::string::npos) << out;
  }
}

// Through the CLI: half the steps, a restart from the checkpoint, the rest: bitwise the same
// summary.json as the uninterrupted run.
TEST(RayleighBenard, CliRestartEqualsTheUninterruptedRunBitwise) {
  const auto dir = surrox::testing::scratch_dir();
  const auto full = testing::expect_cli_restart_bitwise(
      "run " + (surrox::testing::source_dir() / "cases/rayleigh_benard/onset.yaml").string() +
          " --set solver.rayleigh=5000 --set solver.amplitude=0.1 --set \"solver.cells=[16, 16]\"" +
          " --set solver.end_time=6 --set output.hdf5=false",
      dir);
  EXPECT_GT(full["diagnostics"]["u_rms"].get<double>(), 1e-3);
}

TEST(RayleighBenard, BlowUpStopsWithExitCodeOneNamingStepAndCell) {
  auto solver =
      make_solver({"solver.rayleigh=1e4", "solver.cells=[16, 8]", "solver.amplitude=1e300"});
  const std::string what = testing::blow_up_message(*solver);
  EXPECT_NE(what.find("cell (i = "), std::string::npos) << what;
  std::string out;
  const int code = surrox::testing::run_surrox(
      "run " + (surrox::testing::source_dir() / "cases/rayleigh_benard/onset.yaml").string() +
          " -o " + (surrox::testing::scratch_dir() / "blowup").string() +
          " --set solver.amplitude=1e300",
      &out);
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find("blew up at step"), std::string::npos) << out;
}

}  // namespace
}  // namespace surrox::solvers::rayleigh_benard
