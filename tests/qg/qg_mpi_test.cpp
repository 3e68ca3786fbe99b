// ctest-labels: mpi regression
// ctest-ranks: 2
// ctest-libraries: surrox_cli
// The DMDA distributes the QG solver: a double-gyre run on 2 ranks matches the same run on 1 rank
// (a separate `surrox run` process) to round-off, with either Poisson solver (FFTW's distributed
// sine transform; PETSc KSP, redundant LU), and restarts bitwise on 2 ranks.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "io/hdf5_checkpoint.hpp"
#include "qg/qg_checks.hpp"

namespace surrox::solvers::qg {
namespace {

const std::vector<std::string> kCase = {"solver.cells=[32, 64]",   "solver.end_time=0.2",
                                        "solver.initial=random",   "solver.amplitude=100",
                                        "solver.boundary=no_slip", "solver.drag=1",
                                        "solver.average_from=0.05"};

void two_ranks_match_one_rank(const std::string& poisson) {
  Runtime& runtime = testing::runtime();
  ASSERT_EQ(runtime.size(), 2);
  auto settings = kCase;
  settings.push_back("solver.poisson.solver=" + poisson);
  const auto dir = testing::scratch_dir() / poisson;
  int code = 0;
  if (runtime.root()) {
    std::string args = "run " + (testing::source_dir() / "cases/qg/double_gyre.yaml").string() +
                       " -o " + dir.string() + " --set output.vtk=false --set output.hdf5=false";
    for (const auto& o : settings) args += " --set \"" + o + "\"";
    std::string out;
    code = testing::run_surrox(args, &out);
    EXPECT_EQ(code, 0) << out;
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, runtime.comm());
  ASSERT_EQ(code, 0);
  auto solver = testing_support::make_qg(settings);
  while (!solver->finished()) solver->advance();
  const Diagnostics two = solver->diagnostics();
  std::ifstream in(dir / "summary.json");
  const auto one = nlohmann::json::parse(in)["results"]["diagnostics"];
  EXPECT_EQ(one["steps"].get<double>(), two.at("steps"));
  for (const char* figure :
       {"energy", "enstrophy", "wind_input", "drag_dissipation", "viscous_dissipation", "psi_max",
        "psi_min", "mean_energy", "mean_wind_input", "mean_viscous_dissipation"}) {
    const double a = one[figure].get<double>(), b = two.at(figure);
    EXPECT_NEAR(a, b, 1e-11 * std::fabs(a)) << poisson << " " << figure;
    if (runtime.root())
      std::cout << poisson << " " << figure << ": 1 rank " << a << ", 2 ranks " << b
                << ", relative difference " << std::fabs(a - b) / std::fabs(a) << "\n";
  }
}

TEST(QgMpi, TwoRanksMatchOneRankWithFftw) { two_ranks_match_one_rank("fft"); }
TEST(QgMpi, TwoRanksMatchOneRankWithKsp) { two_ranks_match_one_rank("ksp"); }

TEST(QgMpi, RestartOnTwoRanksIsBitwise) {
  auto reference = testing_support::make_qg(kCase);
  for (int n = 0; n < 30; ++n) reference->advance();
  auto first = testing_support::make_qg(kCase);
  for (int n = 0; n < 15; ++n) first->advance();
  io::Hdf5Checkpoint saved;
  first->save_state(saved);
  const auto path = testing::scratch_dir() / "qg_checkpoint.h5";
  saved.write(path, testing::runtime().comm());
  auto resumed = testing_support::make_qg(kCase);
  resumed->load_state(io::Hdf5Checkpoint::read(path, testing::runtime().comm()));
  for (int n = 0; n < 15; ++n) resumed->advance();
  const auto a = testing_support::host_field(*reference, "omega");
  const auto b = testing_support::host_field(*resumed, "omega");
  for (std::size_t n = 0; n < a.size(); ++n) ASSERT_EQ(a.data()[n], b.data()[n]);
}

}  // namespace
}  // namespace surrox::solvers::qg
