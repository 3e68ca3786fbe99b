// ctest-labels: regression
// ctest-libraries: surrox_cli
// The md solver through the CLI: every case in cases/md runs (shortened), writes thermo to
// monitor.csv, thermo.csv and summary.json and particles for ParaView; bad input exits with 2
// and a runtime blow-up with 1, both naming the atom or the line.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "md/md_restart_support.hpp"
#include "md/md_test_support.hpp"
#include "solvers/md/data_file.hpp"

namespace surrox::solvers::md::test {
namespace {

// Runs cases/md/NAME.yaml into dir/NAME (dir: the test's scratch folder, made once per test).
nlohmann::json run_case(const std::filesystem::path& dir, const std::string& name,
                        const std::string& sets, std::string* log = nullptr) {
  const auto out = dir / name;
  std::string text;
  const int rc = surrox::testing::run_surrox(
      fmt::format("run '{}' -o '{}' {}",
                  (surrox::testing::source_dir() / "cases/md" / (name + ".yaml")).string(),
                  out.string(), sets),
      &text);
  EXPECT_EQ(rc, 0) << text;
  if (log) *log = text;
  std::ifstream in(out / "summary.json");
  if (!in) return {};
  return nlohmann::json::parse(in);
}

TEST(MdCli, LjBenchmarkCaseRunsAndWritesThermoAndParticles) {
  const auto dir = surrox::testing::scratch_dir();
  const auto s = run_case(dir, "lj_benchmark",
                          "--set solver.steps=20 --set solver.lattice.replicate=[6,6,6] --set "
                          "output.monitor_interval=10");
  ASSERT_FALSE(s.empty());
  const auto& r = s["results"];
  EXPECT_EQ(r["steps"], 20);
  EXPECT_EQ(r["md"]["atoms"], 864);
  ASSERT_TRUE(r["thermo"].is_array());
  EXPECT_NEAR(r["thermo"][0]["temp"].get<double>(), 1.44, 1e-12);
  const auto out = dir / "lj_benchmark";
  for (const char* f : {"thermo.csv", "final.data", "fields.pvd", "monitor.csv"})
    EXPECT_TRUE(std::filesystem::exists(out / f)) << f;
  // The final data file reads back.
  const std::string again = fmt::format(
      "run '{}' -o '{}' --set solver.steps=1 --set solver.data_file='{}' --set "
      "solver.velocity.temperature=0",
      (surrox::testing::source_dir() / "cases/md/lj_benchmark.yaml").string(),
      (out / "again").string(), (out / "final.data").string());
  std::string text;
  EXPECT_EQ(surrox::testing::run_surrox(again, &text), 0) << text;
}

TEST(MdCli, SiliconAndNvtAndSwBenchmarkCasesRun) {
  const auto dir = surrox::testing::scratch_dir();
  auto s = run_case(dir, "si_sw", "--set solver.steps=50 --set solver.dump=25");
  EXPECT_EQ(s["results"]["md"]["atoms"], 512);
  EXPECT_TRUE(std::filesystem::exists(dir / "si_sw" / "dump.lammpstrj"));
  s = run_case(dir, "lj_liquid_nvt",
               "--set solver.steps=50 --set solver.lattice.replicate=[5,5,5]");
  EXPECT_EQ(s["results"]["md"]["atoms"], 500);
  s = run_case(dir, "sw_benchmark", "--set solver.steps=2 --set solver.lattice.replicate=[3,3,3]");
  EXPECT_EQ(s["results"]["md"]["atoms"], 216);
}

TEST(MdCli, PerAtomOutputAndMonitorRowsLeaveTheTrajectoryUnchanged) {
  // Langevin: output and monitor steps between thermo steps recompute energies and per-atom
  // values, and must keep the thermostat's share of the forces.
  const auto dir = surrox::testing::scratch_dir();
  const std::string common =
      "--set solver.steps=40 --set solver.thermo=10 --set solver.lattice.replicate=[5,5,5] "
      "--set output.interval=0.035";
  const auto plain =
      run_case(dir / "plain", "lj_liquid_nvt", common + " --set output.monitor_interval=10");
  const auto per_atom =
      run_case(dir / "per_atom", "lj_liquid_nvt",
               common + " --set solver.per_atom=true --set output.monitor_interval=7");
  ASSERT_FALSE(plain.empty());
  ASSERT_FALSE(per_atom.empty());
  EXPECT_EQ(plain["results"]["thermo"], per_atom["results"]["thermo"]);
  long files = 0, with_arrays = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir / "per_atom"))
    if (e.path().extension() == ".vtp") {
      ++files;
      std::ifstream in(e.path());
      const std::string text((std::istreambuf_iterator<char>(in)), {});
      with_arrays += text.find("Name=\"pe_atom\"") != std::string::npos &&
                     text.find("Name=\"virial_atom\"") != std::string::npos;
    }
  EXPECT_GE(files, 3);
  EXPECT_EQ(with_arrays, files);
}

TEST(MdCli, BadDataFileExitsWithTwoAndRuntimeBlowUpWithOne) {
  const auto dir = surrox::testing::scratch_dir();
  std::ofstream(dir / "bad.data")
      << "bad\n\n2 atoms\n1 atom types\n\n0 10 xlo xhi\n0 10 ylo yhi\n0 10 zlo zhi\n\n"
         "Masses\n\n1 1.0\n\nAtoms # atomic\n\n1 1 1 1 1\n2 1 2 2 11\n";
  const std::string lj = (surrox::testing::source_dir() / "cases/md/lj_benchmark.yaml").string();
  std::string text;
  EXPECT_EQ(
      surrox::testing::run_surrox(fmt::format("run '{}' -o '{}' --set solver.data_file='{}'", lj,
                                              (dir / "out1").string(), (dir / "bad.data").string()),
                                  &text),
      2)
      << text;
  EXPECT_NE(text.find("atom 2 lies outside the box"), std::string::npos) << text;
  EXPECT_NE(text.find("bad.data:17"), std::string::npos) << text;

  std::ofstream(dir / "overlap.data")
      << "overlap\n\n3 atoms\n1 atom types\n\n0 6 xlo xhi\n0 6 ylo yhi\n0 6 zlo zhi\n\n"
         "Masses\n\n1 1.0\n\nAtoms # atomic\n\n1 1 1 1 1\n2 1 1.0001 1 1\n3 1 4 4 4\n";
  EXPECT_EQ(surrox::testing::run_surrox(
                fmt::format("run '{}' -o '{}' --set solver.data_file='{}'", lj,
                            (dir / "out2").string(), (dir / "overlap.data").string()),
                &text),
            1)
      << text;
  EXPECT_NE(text.find("force blow-up on atom 1 at step 0"), std::string::npos) << text;

  EXPECT_EQ(surrox::testing::run_surrox(
                fmt::format("run '{}' -o '{}' --set solver.lattice.replicate=[1,1,1]", lj,
                            (dir / "out3").string()),
                &text),
            2)
      << text;
  EXPECT_NE(text.find("shorter than cutoff + skin"), std::string::npos) << text;
}

TEST(MdCli, RestartContinuesExactly) {
  const auto dir = surrox::testing::scratch_dir();
  const std::string lj = (surrox::testing::source_dir() / "cases/md/lj_benchmark.yaml").string();
  const std::string common =
      "--set solver.lattice.replicate=[5,5,5] --set output.vtk=false "
      "--set solver.neighbor.every=1 --set solver.neighbor.check=true";
  std::string text;
  ASSERT_EQ(surrox::testing::run_surrox(fmt::format("run '{}' -o '{}' {} --set solver.steps=60", lj,
                                                    (dir / "full").string(), common),
                                        &text),
            0)
      << text;
  ASSERT_EQ(surrox::testing::run_surrox(
                fmt::format("run '{}' -o '{}' {} --set solver.steps=60 --max-steps 30", lj,
                            (dir / "half").string(), common),
                &text),
            0)
      << text;
  ASSERT_TRUE(std::filesystem::exists(dir / "half" / "checkpoint.h5"))
      << "no --max-steps checkpoint: " << text;
  ASSERT_EQ(
      surrox::testing::run_surrox(
          fmt::format("run '{}' -o '{}' {} --set solver.steps=60 --restart '{}'", lj,
                      (dir / "rest").string(), common, (dir / "half" / "checkpoint.h5").string()),
          &text),
      0)
      << text;
  const auto a = read_data_file(dir / "full" / "final.data"),
             b = read_data_file(dir / "rest" / "final.data");
  ASSERT_EQ(a.natoms(), b.natoms());
  long differ = 0;
  for (long i = 0; i < a.natoms(); ++i)
    for (int d = 0; d < 3; ++d) differ += (a.x[i][d] != b.x[i][d]) + (a.v[i][d] != b.v[i][d]);
  EXPECT_EQ(differ, 0);
}

TEST(MdCli, ARestartIntoTheSameFolderContinuesTheRunsRecords) {
  // Issue 39 as a user met it, scaled down: the shipped Langevin liquid stopped by --max-steps
  // on a sort step, then restarted into its folder, ends with the straight run's files: every
  // thermo and monitor row from step 0, the .pvd listing every output, the same atoms.
  const auto dir = surrox::testing::scratch_dir();
  const std::string nvt = (surrox::testing::source_dir() / "cases/md/lj_liquid_nvt.yaml").string();
  const std::string common =
      "--set solver.lattice.replicate=[5,5,5] --set solver.steps=60 --set solver.thermo=10 "
      "--set solver.neighbor.sort=20 --set output.monitor_interval=10 --set output.interval=0.05";
  std::string text;
  ASSERT_EQ(
      surrox::testing::run_surrox(
          fmt::format("run '{}' -o '{}' {}", nvt, (dir / "straight").string(), common), &text),
      0)
      << text;
  const std::string split = (dir / "split").string();
  ASSERT_EQ(surrox::testing::run_surrox(
                fmt::format("run '{}' -o '{}' {} --max-steps 20", nvt, split, common), &text),
            0)
      << text;
  ASSERT_EQ(surrox::testing::run_surrox(fmt::format("run '{}' -o '{}' {} --restart '{}'", nvt,
                                                    split, common, split + "/checkpoint.h5"),
                                        &text),
            0)
      << text;
  // Killed after its last checkpoint, a finished run is restarted once more (the fault test
  // found it listing its last output twice): nothing changes.
  ASSERT_EQ(surrox::testing::run_surrox(fmt::format("run '{}' -o '{}' {} --restart '{}'", nvt,
                                                    split, common, split + "/checkpoint.h5"),
                                        &text),
            0)
      << text;
  for (const char* file : {"thermo.csv", "monitor.csv", "fields.pvd", "final.data"}) {
    const std::string a = file_bytes(dir / "straight" / file), b = file_bytes(dir / "split" / file);
    EXPECT_FALSE(a.empty()) << file;
    EXPECT_EQ(a, b) << file << " differs after the restart";
  }
  const std::string thermo = file_bytes(dir / "split" / "thermo.csv");
  EXPECT_EQ(std::count(thermo.begin(), thermo.end(), '\n'), 1 + 7);  // header, steps 0..60
  EXPECT_FALSE(std::filesystem::exists(dir / "split" / "monitor.csv.partial"));
}

}  // namespace
}  // namespace surrox::solvers::md::test
