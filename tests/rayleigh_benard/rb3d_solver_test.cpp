// ctest-labels: unit regression
// ctest-libraries: surrox_cli
// 3D Rayleigh–Bénard solver: incompressibility after every projection, Nu = 1 for pure
// conduction, convection growing above onset, and bitwise restart.
#include "solvers/rayleigh_benard/rb3d_solver.hpp"

#include <gtest/gtest.h>

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
  auto solver = make(kSmall);
  const double ke0 = [&] {
    solver->advance();
    return solver->instantaneous().at("kinetic_energy");
  }();
  while (!solver->finished()) {
    solver->advance();
    ASSERT_LT(solver->instantaneous().at("max_divergence"), 1e-10) << "step " << solver->step();
  }
  EXPECT_GT(solver->instantaneous().at("kinetic_energy"), 10 * ke0);
  EXPECT_GT(solver->instantaneous().at("nu_volume"), 1.0);
}

TEST(RayleighBenard3d, NusseltNumbersAreOneForConduction) {
  auto solver = make({"solver.rayleigh=1000", "solver.cells=[8, 8, 8]", "solver.amplitude=0"});
  for (int n = 0; n < 3; ++n) solver->advance();
  for (const char* name : {"nu_bottom", "nu_top", "nu_volume", "nu_kinetic", "nu_thermal"})
    EXPECT_NEAR(solver->instantaneous().at(name), 1.0, 1e-12) << name;
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
