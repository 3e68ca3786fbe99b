// ctest-labels: regression slow
// ctest-timeout: 900
// The fault test of issue 39: `surrox run` killed with SIGKILL at points drawn from a fixed
// seed (wall-clock delays, so where each kill lands varies from run to run; the result must
// not), restarted each time from its last periodic checkpoint into the same folder, finishes
// with the straight run's files bit for bit: no thermo or monitor row lost or doubled, the
// .pvd listing every output once, the same atoms, and no partial file under a final name.
#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "md/md_restart_support.hpp"

namespace surrox::solvers::md::test {
namespace {

TEST(MdFault, KilledAndRestartedRunsEndAsTheStraightRun) {
  const auto dir = surrox::testing::scratch_dir();
  const std::string nvt = (surrox::testing::source_dir() / "cases/md/lj_liquid_nvt.yaml").string();
  const std::string common =
      "--log-level warn --set solver.lattice.replicate=[10,10,10] --set solver.steps=2000 "
      "--set solver.neighbor.sort=100 --set output.monitor_interval=10 "
      "--set output.interval=0.5 --set output.checkpoint_interval=25";
  const std::string surrox = surrox::testing::surrox_executable().string();
  std::string text;
  ASSERT_EQ(surrox::testing::run_command(fmt::format("{} run '{}' -o '{}' {}", surrox, nvt,
                                                     (dir / "straight").string(), common),
                                         &text),
            0)
      << text;

  const auto killed = dir / "killed";
  const auto checkpoint = killed / "checkpoint.h5";
  std::mt19937 draw(39);
  std::uniform_real_distribution<double> delay(0.5, 2.5);  // seconds; the run takes ~6 s here
  int kills = 0, restarts = 0, code = -1;
  for (int attempt = 0; attempt < 8 && code != 0; ++attempt) {
    const bool restart = std::filesystem::exists(checkpoint);
    restarts += restart;
    code = surrox::testing::run_command(
        fmt::format("timeout -s KILL {:.2f} {} run '{}' -o '{}' {} {}", delay(draw), surrox, nvt,
                    killed.string(), common,
                    restart ? "--restart '" + checkpoint.string() + "'" : std::string()),
        &text);
    if (code == 128 + 9) {
      ++kills;  // timeout's exit code for a child it killed with SIGKILL
    } else {
      ASSERT_EQ(code, 0) << text;
    }
  }
  if (code != 0) {  // finish without a kill
    restarts += std::filesystem::exists(checkpoint);
    ASSERT_EQ(
        surrox::testing::run_command(fmt::format("{} run '{}' -o '{}' {} --restart '{}'", surrox,
                                                 nvt, killed.string(), common, checkpoint.string()),
                                     &text),
        0)
        << text;
  }
  std::printf("fault test: %d kills, %d restarts\n", kills, restarts);
  EXPECT_GE(kills, 1) << "no kill landed inside the run: the test tried nothing";
  for (const char* file : {"thermo.csv", "monitor.csv", "fields.pvd", "final.data"}) {
    const std::string a = file_bytes(dir / "straight" / file), b = file_bytes(killed / file);
    EXPECT_FALSE(a.empty()) << file;
    EXPECT_EQ(a, b) << file << " differs after " << kills << " kills";
  }
  EXPECT_FALSE(std::filesystem::exists(killed / "monitor.csv.partial"));
}

}  // namespace
}  // namespace surrox::solvers::md::test
