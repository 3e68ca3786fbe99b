// ctest-labels: mpi regression
// ctest-ranks: 2
// ctest-libraries: surrox_cli
// A sweep on 2 ranks: each rank runs its own cases (on MPI_COMM_SELF), rank 0 merges them, and
// every case in the dataset equals the same case run alone on one rank.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "apps/run_case.hpp"
#include "apps/run_driver.hpp"
#include "apps/sweep_runner.hpp"
#include "core/runtime.hpp"
#include "io/case_file.hpp"
#include "io/hdf5_dataset.hpp"
#include "io/hdf5_sweep.hpp"
#include "support/test_paths.hpp"

namespace surrox::apps {
namespace {

TEST(SweepMpi, RanksShareTheCasesAndMatchSingleRuns) {
  Runtime& runtime = surrox::testing::runtime();
  ASSERT_EQ(runtime.size(), 2);
  const auto dir = surrox::testing::scratch_dir();
  const auto path = dir / "sweep.yaml";
  if (runtime.root())
    std::ofstream(path)
        << "solver:\n  type: heat\n  grid: {points: [17, 17]}\n  end_time: 0.004\n"
           "output: {vtk: false}\n"
           "sweep:\n  values:\n    solver.diffusivity: [0.25, 0.5, 1.0]\n    solver.amplitude: [1, 2]\n";
  MPI_Barrier(runtime.comm());
  const SweepOptions options{path, {}, dir / "out"};
  const io::CaseFile c = io::load_case(path, run_case_schema());
  const nlohmann::json results = run_sweep(runtime, c, options);
  EXPECT_EQ(results["cases_run"], 6);
  EXPECT_EQ(runtime.comm(), MPI_COMM_WORLD);  // the per-case communicator scope has ended
  EXPECT_EQ(runtime.size(), 2);
  if (!runtime.root()) return;

  // Cases alternate between the ranks.
  for (int i = 0; i < 6; ++i) {
    std::ifstream in(dir / "out" / "cases" / ("case_000" + std::to_string(i)) / "case.json");
    EXPECT_EQ(nlohmann::json::parse(in)["rank"].get<int>(), i % 2) << i;
  }
  const io::SweepDatasetReader sweep(dir / "out" / "sweep.h5");
  ASSERT_EQ(sweep.cases(), 6u);
  const auto points = expand_sweep(c);
  for (int i : {1, 4}) {  // one case of each rank
    CommunicatorScope one_rank(runtime, MPI_COMM_SELF);
    RunOptions run;
    run.output_dir = dir / ("single" + std::to_string(i));
    run.show_progress = false;
    std::filesystem::create_directories(run.output_dir);
    run_solver(runtime, io::load_case(path, run_case_schema(), points[i].overrides()), run);
    const io::Hdf5DatasetReader reference(run.output_dir / "fields.h5");
    const auto expected = reference.read("u", reference.steps() - 1);
    const auto got = sweep.read("u", i);
    ASSERT_EQ(got.extent(0), expected.extent(0));
    for (std::size_t p = 0; p < got.extent(0); ++p)
      ASSERT_EQ(got(p, 0), expected(p, 0)) << "case " << i;
  }
}

}  // namespace
}  // namespace surrox::apps
