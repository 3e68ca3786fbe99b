// ctest-labels: unit regression
// ctest-libraries: surrox_cli
// 3D Rayleigh–Bénard solver: incompressibility after every projection, Nu = 1 for pure
// conduction (uniform and wall-stretched grids), convection growing above onset, bitwise
// restart, and the output grid (cell data on the cell corners; .vts points when stretched).
#include "solvers/rayleigh_benard/rb3d_solver.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "apps/run_case.hpp"
#include "io/case_file.hpp"
#include "io/hdf5_checkpoint.hpp"
#include "support/test_paths.hpp"

namespace surrox::solvers::rayleigh_benard {
namespace {

std::unique_ptr<RayleighBenard3dSolver> make(std::vector<std::string> overrides) {
  const io::CaseFile c = io::load_case_text("solver: {type: rayleigh_benard_3d}\n", "rb3d.yaml",
                                            apps::run_case_schema(), overrides);
  auto solver = std::make_unique<RayleighBenard3dSolver>();
  solver->initialize(c.root.section("solver"), testing::runtime());
  return solver;
}

const std::vector<std::string> kSmall = {"solver.rayleigh=2e4", "solver.cells=[12, 12, 8]",
                                         "solver.amplitude=0.3", "solver.end_time=3"};

TEST(RayleighBenard3d, DivergenceFreeAndConvectionGrows) {
  for (const char* stretching : {"solver.stretching=0", "solver.stretching=1.5"}) {
    auto settings = kSmall;
    settings.push_back(stretching);
    auto solver = make(settings);
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
    auto solver =
        make({"solver.rayleigh=1000", "solver.cells=[8, 8, 8]", "solver.amplitude=0", stretching});
    for (int n = 0; n < 3; ++n) solver->advance();
    for (const char* name : {"nu_bottom", "nu_top", "nu_volume", "nu_kinetic", "nu_thermal"})
      EXPECT_NEAR(solver->instantaneous().at(name), 1.0, 1e-12) << name << ", " << stretching;
  }
}

TEST(RayleighBenard3d, OutputIsCellDataOnTheCornerGrid) {
  auto uniform = make({"solver.cells=[6, 4, 8]"});
  const io::MeshData image = uniform->output_mesh();
  EXPECT_EQ(image.kind, io::MeshKind::kImage);
  EXPECT_EQ(image.extent, (std::array<long, 6>{0, 6, 0, 4, 0, 8}));
  for (const auto& a : image.cell_data) EXPECT_EQ(a.tuples(), 6u * 4u * 8u) << a.name;
  auto stretched = make({"solver.cells=[6, 4, 8]", "solver.stretching=1.5"});
  const io::MeshData grid = stretched->output_mesh();
  EXPECT_EQ(grid.kind, io::MeshKind::kStructured);
  ASSERT_EQ(grid.points.extent(0), 7u * 5u * 9u);
  for (long k = 0; k <= 8; ++k)
    EXPECT_NEAR(grid.points(35 * k, 2),
                0.5 * (1 + std::tanh(1.5 * (2.0 * k / 8 - 1)) / std::tanh(1.5)), 1e-15);
}

TEST(RayleighBenard3d, RestartIsBitwise) {
  auto reference = make(kSmall);
  for (int n = 0; n < 10; ++n) reference->advance();
  auto first = make(kSmall);
  for (int n = 0; n < 5; ++n) first->advance();
  io::Hdf5Checkpoint saved;
  first->save_state(saved);
  const auto path = testing::scratch_dir() / "rb3d.h5";
  saved.write(path, testing::runtime().comm());
  auto resumed = make(kSmall);
  resumed->load_state(io::Hdf5Checkpoint::read(path, testing::runtime().comm()));
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

}  // namespace
}  // namespace surrox::solvers::rayleigh_benard
