// ctest-labels: mpi regression
// ctest-ranks: 2
// ctest-libraries: surrox_cli
// The DMDA distributes the whole solver: a run on 2 ranks matches the same run on 1 rank
// (started as a separate `surrox run` process) to round-off, and restarts bitwise on 2 ranks.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "apps/run_case.hpp"
#include "core/runtime.hpp"
#include "io/case_file.hpp"
#include "io/hdf5_checkpoint.hpp"
#include "solvers/rayleigh_benard/rb3d_solver.hpp"
#include "solvers/rayleigh_benard/rb_solver.hpp"
#include "support/test_paths.hpp"

namespace surrox::solvers::rayleigh_benard {
namespace {

const std::vector<std::string> kCase = {"solver.rayleigh=1e5", "solver.cells=[64, 16]",
                                        "solver.amplitude=0.2", "solver.end_time=3",
                                        "solver.output_interval=1"};

std::unique_ptr<RayleighBenardSolver> make() {
  const io::CaseFile c = io::load_case_text("solver: {type: rayleigh_benard}\n", "rb.yaml",
                                            apps::run_case_schema(), kCase);
  auto solver = std::make_unique<RayleighBenardSolver>();
  solver->initialize(c.root.section("solver"), testing::runtime());
  return solver;
}

TEST(RayleighBenardMpi, TwoRanksMatchOneRank) {
  Runtime& runtime = testing::runtime();
  ASSERT_EQ(runtime.size(), 2);
  const auto dir = testing::scratch_dir();
  // The one-rank reference, run by rank 0 as a fresh single-process `surrox run`.
  int code = 0;
  if (runtime.root()) {
    std::string args =
        "run " + (testing::source_dir() / "cases/rayleigh_benard/onset.yaml").string() + " -o " +
        (dir / "one").string() + " --set output.vtk=false --set output.hdf5=false";
    for (const auto& o : kCase) args += " --set \"" + o + "\"";
    args += " --set solver.initial=random --set \"solver.length=[4, 1]\" --set solver.cfl=0.5";
    // run_surrox strips this job's MPI environment, so the child is a job of its own.
    std::string out;
    code = testing::run_surrox(args, &out);
    EXPECT_EQ(code, 0) << out;
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, runtime.comm());
  ASSERT_EQ(code, 0);

  auto solver = make();
  while (!solver->finished()) solver->advance();
  const Diagnostics two = solver->diagnostics();
  std::ifstream in(dir / "one" / "summary.json");
  const auto one = nlohmann::json::parse(in)["results"]["diagnostics"];
  EXPECT_EQ(one["u_rms"].get<double>() > 1e-3, true);
  for (const char* name : {"nu_bottom", "nu_top", "nu_volume", "nu_kinetic", "nu_thermal",
                           "kinetic_energy", "u_rms", "mean_nu_bottom", "mean_kinetic_energy"}) {
    const double a = one[name].get<double>(), b = two.at(name);
    EXPECT_NEAR(a, b, 1e-11 * std::fabs(a)) << name;
    if (runtime.root())
      std::cout << name << ": 1 rank " << a << ", 2 ranks " << b << ", relative difference "
                << std::fabs(a - b) / std::fabs(a) << "\n";
  }
  EXPECT_EQ(solver->time(), 3.0);
}

TEST(RayleighBenardMpi, RestartIsBitwiseOnTwoRanks) {
  auto reference = make();
  for (int n = 0; n < 30; ++n) reference->advance();
  auto first = make();
  for (int n = 0; n < 15; ++n) first->advance();
  io::Hdf5Checkpoint saved;
  first->save_state(saved);
  const auto path = testing::scratch_dir() / "rb_checkpoint.h5";
  saved.write(path, testing::runtime().comm());
  auto resumed = make();
  resumed->load_state(io::Hdf5Checkpoint::read(path, testing::runtime().comm()));
  for (int n = 0; n < 15; ++n) resumed->advance();
  const Diagnostics a = reference->instantaneous(), b = resumed->instantaneous();
  for (const auto& [name, value] : a) EXPECT_EQ(value, b.at(name)) << name;
  for (const char* name : {"u", "w", "b", "p"}) {
    auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                  reference->state().fields.at(name));
    auto hb =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), resumed->state().fields.at(name));
    std::size_t differing = 0;
    for (std::size_t n = 0; n < ha.size(); ++n) differing += ha.data()[n] != hb.data()[n];
    EXPECT_EQ(differing, 0u) << name;
  }
}

// 3D with the iterative default (CG + GAMG): the two decompositions agree to the solver
// tolerance, not bitwise.
TEST(RayleighBenardMpi, ThreeDimensionsTwoRanksMatchOneRank) {
  Runtime& runtime = testing::runtime();
  const auto dir = testing::scratch_dir();
  const std::vector<std::string> settings = {"solver.rayleigh=2e4", "solver.cells=[12, 12, 8]",
                                             "solver.amplitude=0.3", "solver.end_time=2",
                                             "solver.output_interval=0"};
  int code = 0;
  if (runtime.root()) {
    std::string args =
        "run " + (testing::source_dir() / "cases/rayleigh_benard/ra1e4_3d.yaml").string() + " -o " +
        (dir / "one3d").string() + " --set output.vtk=false --set output.hdf5=false";
    for (const auto& o : settings) args += " --set \"" + o + "\"";
    std::string out;
    code = testing::run_surrox(args, &out);
    EXPECT_EQ(code, 0) << out;
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, runtime.comm());
  ASSERT_EQ(code, 0);
  const io::CaseFile c = io::load_case_text("solver: {type: rayleigh_benard_3d}\n", "rb3d.yaml",
                                            apps::run_case_schema(), settings);
  RayleighBenard3dSolver solver;
  solver.initialize(c.root.section("solver"), runtime);
  while (!solver.finished()) solver.advance();
  const Diagnostics two = solver.diagnostics();
  std::ifstream in(dir / "one3d" / "summary.json");
  const auto one = nlohmann::json::parse(in)["results"]["diagnostics"];
  for (const char* name : {"nu_bottom", "nu_top", "nu_volume", "kinetic_energy", "u_rms"}) {
    const double a = one[name].get<double>(), b = two.at(name);
    EXPECT_NEAR(a, b, 1e-8 * std::fabs(a)) << name;
    if (runtime.root())
      std::cout << "3D " << name << ": relative difference " << std::fabs(a - b) / std::fabs(a)
                << "\n";
  }
}

}  // namespace
}  // namespace surrox::solvers::rayleigh_benard
