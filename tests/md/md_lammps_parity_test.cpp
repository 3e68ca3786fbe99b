// ctest-labels: regression
// ctest-libraries: surrox_cli
// ctest-timeout: 600
// Parity with LAMMPS (29 Sep 2021): both codes start from the same data file (written by
// LAMMPS after `velocity create`, see in.lj_parity and in.sw_parity) and the thermo rows must
// agree to 1e-8 relative at every step LAMMPS printed. The committed references (lj_n5.*,
// sw_n3.*) always run; the 32,000-atom in.lj benchmark and a 512-atom silicon run are
// compared live when lmp is installed.
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "md/md_test_support.hpp"

namespace surrox::solvers::md::test {
namespace {

constexpr double kTolerance = 1e-8;

void report(const std::string& name, const ParityError& e) {
  std::printf(
      "%s max relative error: temp %.2e  e_pair %.2e  e_kin %.2e  e_total %.2e  press %.2e\n",
      name.c_str(), e.temp, e.e_pair, e.e_kin, e.e_total, e.press);
  EXPECT_LT(e.worst(), kTolerance) << name;
}

std::string lj_case(const std::filesystem::path& data, long steps) {
  // LAMMPS: neighbor 0.3 bin, neigh_modify delay 0 every 20 check no.
  return fmt::format(
      "data_file: '{}', steps: {}, dt: 0.005, thermo: 5, pair: {{type: lj/cut, cutoff: 2.5}}, "
      "neighbor: {{skin: 0.3, every: 20, check: false}}",
      data.string(), steps);
}

std::string sw_case(const std::filesystem::path& data, long steps) {
  return fmt::format(
      "units: metal, data_file: '{}', steps: {}, dt: 0.001, thermo: 10, "
      "pair: {{type: sw, file: '{}', elements: Si}}, neighbor: {{skin: 1.0}}",
      data.string(), steps, (md_dir() / "Si.sw").string());
}

TEST(MdLammpsParity, LennardJones500AtomsMatchesCommittedLog) {
  const auto lammps = read_lammps_log(md_dir() / "lj_n5.log");
  ASSERT_EQ(lammps.size(), 21u);
  auto solver = make_solver(lj_case(md_dir() / "lj_n5.data", 100));
  report("lj 500 atoms (committed log)", compare_with_lammps(*solver, lammps));
}

TEST(MdLammpsParity, LennardJonesWithHalfSkinCheckMatchesCommittedLog) {
  // LAMMPS with `neigh_modify every 1 check yes`: both codes rebuild when an atom has moved
  // half the skin, so no pair is ever missed (in.lj's every-20 schedule can miss a few).
  const auto lammps = read_lammps_log(md_dir() / "lj_n5_check.log");
  ASSERT_EQ(lammps.size(), 21u);
  auto solver = make_solver(lj_case(md_dir() / "lj_n5.data", 100),
                            {"solver.neighbor.every=1", "solver.neighbor.check=true"});
  report("lj 500 atoms, half-skin rebuilds", compare_with_lammps(*solver, lammps));
  EXPECT_GT(solver->neighbors().builds(), 2);
}

TEST(MdLammpsParity, StillingerWeberSilicon216AtomsMatchesCommittedLog) {
  const auto lammps = read_lammps_log(md_dir() / "sw_n3.log");
  ASSERT_EQ(lammps.size(), 21u);
  auto solver = make_solver(sw_case(md_dir() / "sw_n3.data", 200));
  report("sw silicon 216 atoms (committed log)", compare_with_lammps(*solver, lammps));
  // Above 1000 K after equilibration, as the issue asks.
  EXPECT_GT(lammps.back().temp, 1000.0);
}

// Runs lmp on a script in a scratch folder; returns the folder.
std::filesystem::path run_lammps(const std::string& script, const std::string& vars,
                                 const std::string& log) {
  const auto dir = surrox::testing::scratch_dir();
  std::filesystem::copy_file(md_dir() / script, dir / script);
  std::filesystem::copy_file(md_dir() / "Si.sw", dir / "Si.sw");
  std::string out;
  const int rc = surrox::testing::run_command(
      fmt::format("sh -c \"cd '{}' && lmp -screen none -log {} {} -in {}\"", dir.string(), log,
                  vars, script),
      &out);
  EXPECT_EQ(rc, 0) << out;
  return dir;
}

TEST(MdLammpsParity, LennardJonesBenchmark32000AtomsLive) {
  if (!lammps_available())
    GTEST_SKIP() << "lmp is not installed: the committed 500-atom log stands in";
  const auto dir = run_lammps("in.lj_parity", "-var n 20", "lj_n20.log");
  const auto lammps = read_lammps_log(dir / "lj_n20.log");
  ASSERT_EQ(lammps.size(), 21u);
  auto solver = make_solver(lj_case(dir / "lj_n20.data", 100));
  ASSERT_EQ(solver->natoms(), 32000);
  report("lj in.lj 32000 atoms (live lmp)", compare_with_lammps(*solver, lammps));
}

TEST(MdLammpsParity, StillingerWeberSilicon512AtomsLive) {
  if (!lammps_available())
    GTEST_SKIP() << "lmp is not installed: the committed 216-atom log stands in";
  const auto dir = run_lammps("in.sw_parity", "-var n 4", "sw_n4.log");
  const auto lammps = read_lammps_log(dir / "sw_n4.log");
  ASSERT_EQ(lammps.size(), 21u);
  auto solver = make_solver(sw_case(dir / "sw_n4.data", 200));
  ASSERT_EQ(solver->natoms(), 512);
  report("sw silicon 512 atoms (live lmp)", compare_with_lammps(*solver, lammps));
}

}  // namespace
}  // namespace surrox::solvers::md::test

namespace surrox::solvers::md::test {
namespace {

// g(r) rows (bin centre, g) of a LAMMPS `fix ave/time ... c_rdf[*] mode vector` file.
std::vector<std::pair<double, double>> read_lammps_rdf(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::pair<double, double>> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::vector<double> v;
    for (double d; ls >> d;) v.push_back(d);
    if (v.size() == 4) rows.emplace_back(v[1], v[2]);
  }
  return rows;
}

double read_lammps_scalar(const std::filesystem::path& path) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    long step;
    double value;
    if (ls >> step >> value) return value;
  }
  ADD_FAILURE() << "no value in " << path;
  return 0;
}

TEST(MdLammpsParity, RadialDistributionAndPressureAgreeWithinStatisticalError) {
  // 500-atom LJ liquid, NVE, 5000 steps, samples every 100 steps (in.lj_rdf). The two
  // trajectories start identical and drift apart by chaos, so the averages must agree within
  // the statistical error of the mean (here: 4 combined standard errors per bin).
  std::filesystem::path dir = md_dir();
  if (lammps_available()) {
    dir = surrox::testing::scratch_dir();
    for (const char* f : {"in.lj_rdf", "lj_n5.data"})
      std::filesystem::copy_file(md_dir() / f, dir / f);
    std::string out;
    ASSERT_EQ(
        surrox::testing::run_command(
            fmt::format("sh -c \"cd '{}' && lmp -screen none -log lj_n5_rdf.log -in in.lj_rdf\"",
                        dir.string()),
            &out),
        0)
        << out;
  }
  const auto lammps = read_lammps_rdf(dir / "lj_n5_rdf.lammps");
  ASSERT_EQ(lammps.size(), 50u);
  const double lammps_press = read_lammps_scalar(dir / "lj_n5_press.lammps");
  auto solver =
      make_solver(fmt::format("data_file: '{}', steps: 5000, thermo: 1000, pair: {{type: lj/cut}}, "
                              "rdf: {{bins: 50, every: 100}}",
                              (md_dir() / "lj_n5.data").string()));
  while (!solver->finished()) solver->advance();
  // The RDF as the run writes it: rdf.csv (17 digits) and summary.json's `rdf`.
  const std::filesystem::path written = surrox::testing::scratch_dir() / "written";
  std::filesystem::create_directories(written);
  nlohmann::json results;
  solver->finalize(written, results);
  struct {
    std::vector<double> r, g, g_stderr;
    long samples;
    double press, press_stderr;
  } rdf{{},
        {},
        {},
        results["rdf"]["samples"].get<long>(),
        results["rdf"]["press_mean"].get<double>(),
        results["rdf"]["press_stderr"].get<double>()};
  {
    std::ifstream csv(written / "rdf.csv");
    std::string line;
    std::getline(csv, line);
    for (double r, g, e; std::getline(csv, line);) {
      ASSERT_EQ(std::sscanf(line.c_str(), "%lf,%lf,%lf", &r, &g, &e), 3) << line;
      rdf.r.push_back(r);
      rdf.g.push_back(g);
      rdf.g_stderr.push_back(e);
    }
  }
  ASSERT_EQ(rdf.samples, 50);
  ASSERT_EQ(rdf.g.size(), 50u);
  double worst_sigma = 0, worst_abs = 0, peak = 0;
  for (std::size_t b = 0; b < 50; ++b) {
    EXPECT_NEAR(rdf.r[b], lammps[b].first, 1e-12);
    const double diff = std::fabs(rdf.g[b] - lammps[b].second);
    // LAMMPS prints 6 significant digits; its error of the mean is taken equal to ours.
    const double sigma = std::sqrt(2.0) * rdf.g_stderr[b] + 1e-6 * std::fabs(lammps[b].second);
    worst_abs = std::max(worst_abs, diff);
    peak = std::max(peak, rdf.g[b]);
    if (diff > 0) worst_sigma = std::max(worst_sigma, diff / std::max(sigma, 1e-300));
    EXPECT_LE(diff, 4 * sigma + 1e-12) << "bin " << b << " r " << rdf.r[b];
  }
  const double press_sigma = std::sqrt(2.0) * rdf.press_stderr + 1e-6 * std::fabs(lammps_press);
  std::printf(
      "rdf: max |Δg| %.3e (%.2f σ), g peak %.3f; pressure surrox %.6f ± %.6f, LAMMPS %.6f\n",
      worst_abs, worst_sigma, peak, rdf.press, rdf.press_stderr, lammps_press);
  EXPECT_GT(peak, 2.0);  // a liquid's first peak
  EXPECT_LE(std::fabs(rdf.press - lammps_press), 4 * press_sigma);
}

}  // namespace
}  // namespace surrox::solvers::md::test
