// ctest-labels: unit regression
// ctest-libraries: surrox_cli
// 3D Rayleigh–Bénard solver: incompressibility after every projection, Nu = 1 for pure
// conduction (uniform and wall-stretched grids), convection growing above onset, bitwise
// restart (in process and through the CLI), the output grid (cell data on the cell corners;
// .vts points when stretched; pressure of zero mean), the steady stop, nusselt.csv, and a
// blow-up naming its cell. The onset is in rb_onset_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "apps/run_case.hpp"
#include "io/case_file.hpp"
#include "io/hdf5_checkpoint.hpp"
#include "rayleigh_benard/rb_checks.hpp"
#include "solvers/rayleigh_benard/rb_solver.hpp"
#include "support/test_paths.hpp"

namespace surrox::solvers::rayleigh_benard {
namespace {

std::unique_ptr<RayleighBenardSolver<3>> make_3d(std::vector<std::string> overrides) {
  const io::CaseFile c = io::load_case_text("solver: {type: rayleigh_benard_3d}\n", "rb3d.yaml",
                                            apps::run_case_schema(), overrides);
  auto solver = std::make_unique<RayleighBenardSolver<3>>();
  solver->initialize(c.root.section("solver"), surrox::testing::runtime());
  return solver;
}

const std::vector<std::string> kSmall = {"solver.rayleigh=2e4", "solver.cells=[12, 12, 8]",
                                         "solver.amplitude=0.3", "solver.end_time=3"};

TEST(RayleighBenard3d, DivergenceFreeAndConvectionGrows) {
  for (const char* stretching : {"solver.stretching=0", "solver.stretching=1.5"}) {
    auto settings = kSmall;
    settings.push_back(stretching);
    auto solver = make_3d(settings);
    const double ke0 = [&] {
      solver->advance();
      return solver->instantaneous().at("kinetic_energy");
    }();
    while (!solver->finished()) {
      solver->advance();
      ASSERT_LT(solver->instantaneous().at("max_divergence"), 1e-10) << "step " << solver->step();
    }
    EXPECT_GT(solver->instantaneous().at("kinetic_energy"), 10 * ke0) << stretching;
    EXPECT_GT(solver->instantaneous().at("nu_volume"), 1.0) << stretching;
  }
}

TEST(RayleighBenard3d, NusseltNumbersAreOneForConduction) {
  for (const char* stretching : {"solver.stretching=0", "solver.stretching=2"}) {
    auto solver = make_3d(
        {"solver.rayleigh=1000", "solver.cells=[8, 8, 8]", "solver.amplitude=0", stretching});
    for (int n = 0; n < 3; ++n) solver->advance();
    for (const char* name : {"nu_bottom", "nu_top", "nu_volume", "nu_kinetic", "nu_thermal"})
      EXPECT_NEAR(solver->instantaneous().at(name), 1.0, 1e-12) << name << ", " << stretching;
  }
}

TEST(RayleighBenard3d, OutputIsCellDataOnTheCornerGrid) {
  auto uniform = make_3d({"solver.cells=[6, 4, 8]"});
  const io::MeshData image = uniform->output_mesh();
  EXPECT_EQ(image.kind, io::MeshKind::kImage);
  EXPECT_EQ(image.extent, (std::array<long, 6>{0, 6, 0, 4, 0, 8}));
  for (const auto& a : image.cell_data) EXPECT_EQ(a.tuples(), 6u * 4u * 8u) << a.name;
  auto stretched = make_3d({"solver.cells=[6, 4, 8]", "solver.stretching=1.5"});
  const io::MeshData grid = stretched->output_mesh();
  EXPECT_EQ(grid.kind, io::MeshKind::kStructured);
  ASSERT_EQ(grid.points.extent(0), 7u * 5u * 9u);
  for (long k = 0; k <= 8; ++k)
    EXPECT_NEAR(grid.points(35 * k, 2),
                0.5 * (1 + std::tanh(1.5 * (2.0 * k / 8 - 1)) / std::tanh(1.5)), 1e-15);
}

TEST(RayleighBenard3d, RestartIsBitwise) {
  auto reference = make_3d(kSmall);
  for (int n = 0; n < 10; ++n) reference->advance();
  auto first = make_3d(kSmall);
  for (int n = 0; n < 5; ++n) first->advance();
  io::Hdf5Checkpoint saved;
  first->save_state(saved);
  const auto path = surrox::testing::scratch_dir() / "rb3d.h5";
  saved.write(path, surrox::testing::runtime().comm());
  auto resumed = make_3d(kSmall);
  resumed->load_state(io::Hdf5Checkpoint::read(path, surrox::testing::runtime().comm()));
  for (int n = 0; n < 5; ++n) resumed->advance();
  for (const char* name : {"u", "v", "w", "b", "p"}) {
    auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                 reference->state().fields.at(name));
    auto b =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), resumed->state().fields.at(name));
    std::size_t differing = 0;
    for (std::size_t n = 0; n < a.size(); ++n) differing += a.data()[n] != b.data()[n];
    EXPECT_EQ(differing, 0u) << name;
  }
}

// The output pressure has zero volume mean (its constant is arbitrary).
TEST(RayleighBenard3d, OutputPressureHasZeroMean) {
  auto solver = make_3d(kSmall);
  for (int n = 0; n < 3; ++n) solver->advance();
  const io::MeshData mesh = solver->output_mesh();
  double sum = 0, scale = 0;
  for (const auto& a : mesh.cell_data)
    if (a.name == "p")
      for (std::size_t n = 0; n < a.tuples(); ++n)
        sum += a.values(n, 0), scale = std::max(scale, std::fabs(a.values(n, 0)));
  EXPECT_GT(scale, 0);
  EXPECT_LT(std::fabs(sum) / static_cast<double>(12 * 12 * 8), 1e-14 * scale);
}

// Below onset, from the conductive state, Nu stays 1: |dNu/dt| is below any tolerance at once.
TEST(RayleighBenard3d, SteadyToleranceStopsEarly) {
  auto solver = make_3d({"solver.rayleigh=1000", "solver.cells=[8, 8, 8]", "solver.amplitude=0",
                         "solver.end_time=100", "solver.steady_tolerance=1e-6"});
  while (!solver->finished()) solver->advance();
  EXPECT_EQ(solver->step(), 1);
}

TEST(RayleighBenard3d, BlowUpNamesStepAndCell) {
  auto solver =
      make_3d({"solver.rayleigh=1e4", "solver.cells=[8, 8, 8]", "solver.amplitude=1e300"});
  const std::string what = testing::blow_up_message(*solver);
  EXPECT_NE(what.find("cell (i = "), std::string::npos) << what;
  EXPECT_NE(what.find(", j = "), std::string::npos) << what;
}

// Through the CLI: half the steps, a restart, the rest: bitwise the same summary.json (time
// averages and the last step's figures) as the uninterrupted run, which writes nusselt.csv.
TEST(RayleighBenard3d, CliRestartEqualsTheUninterruptedRunBitwise) {
  const auto dir = surrox::testing::scratch_dir();
  const auto full = testing::expect_cli_restart_bitwise(
      "run " + (surrox::testing::source_dir() / "cases/rayleigh_benard/ra1e4_3d.yaml").string() +
          " --set solver.rayleigh=2e4 --set solver.amplitude=0.3 --set \"solver.cells=[12, 12, "
          "8]\"" +
          " --set solver.end_time=2 --set solver.average_from=1 --set output.hdf5=false" +
          " --set output.vtk=false",
      dir);
  EXPECT_GT(full["diagnostics"]["mean_nu_volume"].get<double>(), 1.0);
  std::ifstream csv(dir / "full" / "nusselt.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("time,dt,nu_bottom", 0), 0u) << header;
}

}  // namespace
}  // namespace surrox::solvers::rayleigh_benard
