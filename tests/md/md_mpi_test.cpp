// ctest-labels: mpi regression
// ctest-ranks: 2
// ctest-libraries: surrox_cli
// ctest-timeout: 600
// Spatial decomposition on 2 ranks: atoms migrate between the ranks' blocks and ghosts come
// from the other rank, yet thermo matches LAMMPS (and so the 1-rank run) to round-off, and a
// restart on 2 ranks continues bitwise.
#include <fmt/format.h>

#include "core/runtime.hpp"
#include "io/hdf5_checkpoint.hpp"
#include "md/md_restart_support.hpp"
#include "md/md_test_support.hpp"

namespace surrox::solvers::md::test {
namespace {

// Tighter than the 1e-8 of the issue: 1-rank runs agree with LAMMPS to ~1e-13.
constexpr double kRoundOff = 1e-11;

long owned_on_all_ranks(const MdSolver& md) {
  long n = md.system().nlocal;
  MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return n;
}

TEST(MdMpi, LennardJonesOnTwoRanksMatchesLammps) {
  const auto lammps = read_lammps_log(md_dir() / "lj_n5_check.log");
  auto md =
      make_solver(fmt::format("data_file: '{}', steps: 100, thermo: 5, pair: {{type: lj/cut}}",
                              (md_dir() / "lj_n5.data").string()));
  ASSERT_EQ(md->neighbors().ranks(), 2);
  EXPECT_GT(md->system().nlocal, 0);
  EXPECT_LT(md->system().nlocal, 500);
  const ParityError e = compare_with_lammps(*md, lammps);
  if (surrox::testing::runtime().root())
    std::printf(
        "lj 500 atoms on 2 ranks: max relative error temp %.2e e_pair %.2e e_total %.2e press "
        "%.2e\n",
        e.temp, e.e_pair, e.e_total, e.press);
  EXPECT_LT(e.worst(), kRoundOff);
  EXPECT_EQ(owned_on_all_ranks(*md), 500);  // no atom lost or doubled by migration
}

TEST(MdMpi, StillingerWeberOnTwoRanksMatchesLammps) {
  const auto lammps = read_lammps_log(md_dir() / "sw_n3.log");
  auto md =
      make_solver(fmt::format("units: metal, data_file: '{}', steps: 200, dt: 0.001, thermo: 10, "
                              "pair: {{type: sw, file: '{}'}}, neighbor: {{skin: 1.0}}",
                              (md_dir() / "sw_n3.data").string(), (md_dir() / "Si.sw").string()));
  const ParityError e = compare_with_lammps(*md, lammps);
  if (surrox::testing::runtime().root())
    std::printf(
        "sw 216 atoms on 2 ranks: max relative error temp %.2e e_pair %.2e e_total %.2e press "
        "%.2e\n",
        e.temp, e.e_pair, e.e_total, e.press);
  EXPECT_LT(e.worst(), kRoundOff);
  EXPECT_EQ(owned_on_all_ranks(*md), 216);
}

TEST(MdMpi, RestartOnTwoRanksIsBitwiseExact) {
  // Atoms migrate between the ranks at the builds; sorts every 20 steps, a Langevin
  // thermostat, RDF samples and dump frames: restarted on a sort step, a sample step and
  // between builds.
  const std::string yaml = fmt::format(
      "data_file: '{}', steps: 60, thermo: 10, dump: 25, rdf: {{bins: 20, every: 15}}, "
      "pair: {{type: lj/cut}}, neighbor: {{every: 1, check: true, sort: 20, skin: 0.1}}, "
      "integrator: {{style: langevin, temperature: 0.8, damping: 0.5}}",
      (md_dir() / "lj_n5.data").string());
  const auto scratch = surrox::testing::scratch_dir();
  for (long step : {15L, 20L, 33L, 40L}) {
    const RestartDifference d =
        restart_difference(yaml, step, scratch / ("at_" + std::to_string(step)));
    EXPECT_TRUE(d.none()) << "restarted at step " << step << ": " << d.describe();
  }
}

// The isobaric LJ liquid (tests/md/md_barostat_test.cpp) with a neighbour-list sort every 50
// steps: atoms migrate while the box and the ranks' blocks change with the barostat.
std::string lj_npt_on_ranks(long steps, const std::string& couple) {
  return fmt::format(
      "lattice: {{style: fcc, density: 0.8442, replicate: [6, 6, 6]}}, "
      "velocity: {{temperature: 1.5, seed: 11}}, steps: {}, thermo: 10, "
      "pair: {{type: lj/cut}}, neighbor: {{sort: 50}}, "
      "integrator: {{style: langevin, temperature: 1.5, damping: 0.5}}, "
      "barostat: {{style: c_rescale, pressure: 2.0, couple: {}, damping: 1.0, "
      "compressibility: 0.1}}",
      steps, couple);
}

TEST(MdMpi, BarostatOnTwoRanksFollowsTheOneRankRun) {
  for (const char* couple : {"isotropic", "axes"}) {
    auto two = make_solver(lj_npt_on_ranks(300, couple));
    while (!two->finished()) two->advance();
    const ThermoRow row2 = two->thermo();
    std::array<double, 4> one{};  // vol, lx, ly, lz of the same case on rank 0 alone
    if (surrox::testing::runtime().root()) {
      CommunicatorScope alone(surrox::testing::runtime(), MPI_COMM_SELF);
      auto md = make_solver(lj_npt_on_ranks(300, couple));
      while (!md->finished()) md->advance();
      const ThermoRow r = md->thermo();
      one = {r.vol, r.lx, r.ly, r.lz};
    }
    MPI_Bcast(one.data(), 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (surrox::testing::runtime().root())
      std::printf("%s: V on 1 rank %.15g, on 2 ranks %.15g (initial %.6g)\n", couple, one[0],
                  row2.vol, 6 * 6 * 6 * 4 / 0.8442);
    // The sums over atoms differ in order between 1 and 2 ranks: round-off grown over 300
    // steps of a liquid, far below the ~3 % the box moved.
    EXPECT_NEAR(row2.vol, one[0], 1e-8 * one[0]) << couple;
    EXPECT_NEAR(row2.lx, one[1], 1e-8 * one[1]) << couple;
    EXPECT_NEAR(row2.lz, one[3], 1e-8 * one[3]) << couple;
    EXPECT_GT(std::fabs(row2.vol / (6 * 6 * 6 * 4 / 0.8442) - 1), 0.01) << couple;
    EXPECT_EQ(owned_on_all_ranks(*two), 864);
  }
}

TEST(MdMpi, BarostatRestartOnTwoRanksIsBitwiseExact) {
  const auto scratch = surrox::testing::scratch_dir();
  for (const char* couple : {"isotropic", "axes"}) {
    const RestartDifference d =
        restart_difference(lj_npt_on_ranks(120, couple), 53, scratch / couple);
    EXPECT_TRUE(d.none()) << couple << ": " << d.describe();
  }
}

TEST(MdMpi, LennardJonesBenchmark32000AtomsOnTwoRanksMatchesLammpsLive) {
  if (!lammps_available())
    GTEST_SKIP() << "lmp is not installed: the committed 500-atom log stands in";
  const auto dir = surrox::testing::scratch_dir();
  if (surrox::testing::runtime().root()) {
    std::filesystem::copy_file(md_dir() / "in.lj_parity", dir / "in.lj_parity");
    std::string out;
    EXPECT_EQ(surrox::testing::run_command(
                  fmt::format("env -i PATH=/usr/bin:/bin HOME=/tmp sh -c \"cd "
                              "'{}' && lmp -screen none -log lj_n20.log -var n 20 "
                              "-in in.lj_parity\"",
                              dir.string()),
                  &out),
              0)
        << out;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const auto lammps = read_lammps_log(dir / "lj_n20.log");
  ASSERT_EQ(lammps.size(), 21u);
  auto md =
      make_solver(fmt::format("data_file: '{}', steps: 100, thermo: 5, pair: {{type: lj/cut}}, "
                              "neighbor: {{skin: 0.3, every: 20, check: false}}",
                              (dir / "lj_n20.data").string()));
  const ParityError e = compare_with_lammps(*md, lammps);
  if (surrox::testing::runtime().root())
    std::printf(
        "in.lj 32000 atoms on 2 ranks: max relative error temp %.2e e_pair %.2e e_total %.2e press "
        "%.2e\n",
        e.temp, e.e_pair, e.e_total, e.press);
  EXPECT_LT(e.worst(), kRoundOff);
  EXPECT_EQ(owned_on_all_ranks(*md), 32000);
}

TEST(MdMpi, TooManyRanksForTheBoxIsAnInputError) {
  // 2 ranks along x of a 2-cell box: blocks thinner than cutoff + skin.
  try {
    make_solver(
        "lattice: {style: fcc, density: 0.8442, replicate: [2, 2, 2]}, pair: {type: lj/cut}");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("MPI ranks along x"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace surrox::solvers::md::test
