// ctest-labels: unit mpi
// ctest-ranks: 2
// ctest-libraries: surrox_lammps surrox_families
// ctest-pch: torch
// ctest-requires: surrox_lammps
// pair_style surrox/deep on two ranks (ghost atoms from the other rank, forces returned by
// reverse communication, deviation rows reduced over ranks) gives one rank's trajectory to
// round-off: 100 NVE steps of 64 silicon atoms with two models' deviation every 20 steps. The
// one-rank reference runs on rank 0 under MPI_COMM_SELF.
#include "lammps_test_support.hpp"
#include "surrogates/deep_potential/model_deviation.hpp"

namespace surrox::lammps::test {
namespace {

struct Trajectory {
  double energy = 0;
  std::vector<double> x, f;
  std::vector<dp::ModelDeviRow> devi;
};

Trajectory run_nve(const std::filesystem::path& dir, MPI_Comm comm, const std::string& m0,
                   const std::string& m1, const std::string& out) {
  Trajectory t;
  std::filesystem::create_directories(dir);
  Lammps l(dir, comm);
  start(l, dir, silicon_frame(), "surrox/deep " + m0 + " " + m1 + " out_freq 20 out_file " + out);
  l("velocity all create 600 5 loop geom");
  l("timestep 0.0005");
  l("fix nve all nve");
  l("run 100");
  t.energy = l.energy();
  t.x = l.gather("x", 3);
  t.f = l.gather("f", 3);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Barrier(comm);
  if (rank == 0) t.devi = dp::read_model_devi_out(out);
  return t;
}

TEST(LammpsPairRanks, TwoRanksGiveOneRanksTrajectory) {
  int size = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ASSERT_EQ(size, 2);
  const auto dir = surrox::testing::scratch_dir();
  const std::string m0 = scratch_model(dir, "m0.pt", 1), m1 = scratch_model(dir, "m1.pt", 7);
  const Trajectory two = run_nve(dir, MPI_COMM_WORLD, m0, m1, (dir / "md_2.out").string());
  if (rank != 0) return;
  const Trajectory one = run_nve(dir / "one", MPI_COMM_SELF, m0, m1, (dir / "md_1.out").string());
  EXPECT_NEAR(two.energy, one.energy, 1e-10 * std::fabs(one.energy));
  double dx = 0, df = 0, fmax = 0;
  for (std::size_t k = 0; k < one.x.size(); ++k) {
    dx = std::max(dx, std::fabs(two.x[k] - one.x[k]));
    df = std::max(df, std::fabs(two.f[k] - one.f[k]));
    fmax = std::max(fmax, std::fabs(one.f[k]));
  }
  EXPECT_LT(dx, 1e-9);
  EXPECT_LT(df, 1e-8 * fmax);
  ASSERT_EQ(one.devi.size(), 6u);  // steps 0, 20, ..., 100
  ASSERT_EQ(two.devi.size(), one.devi.size());
  for (std::size_t r = 0; r < one.devi.size(); ++r) {
    EXPECT_EQ(two.devi[r].step, one.devi[r].step);
    EXPECT_NEAR(two.devi[r].max_devi_f, one.devi[r].max_devi_f, 1e-8 * one.devi[r].max_devi_f);
    EXPECT_NEAR(two.devi[r].avg_devi_f, one.devi[r].avg_devi_f, 1e-8 * one.devi[r].avg_devi_f);
    EXPECT_NEAR(two.devi[r].max_devi_v, one.devi[r].max_devi_v, 1e-8 * one.devi[r].max_devi_v);
  }
  std::printf("2 ranks vs 1 after 100 steps: max |Δx| = %.3g Å, max |ΔF| = %.3g eV/Å\n", dx, df);
}

}  // namespace
}  // namespace surrox::lammps::test
