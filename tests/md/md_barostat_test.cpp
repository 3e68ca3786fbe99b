// ctest-labels: regression
// Stochastic cell rescaling (barostat.hpp): the box and the atoms stay one consistent system
// through box changes and list rebuilds, the isobaric LJ liquid averages to the target pressure
// and to the density LAMMPS's fix npt gives at the same state, `axes` relaxes a strained
// crystal back to cubic while `isotropic` keeps the shape, restarts continue bit for bit, and
// bad barostat sections are input errors.
#include <fmt/format.h>

#include <cmath>

#include "md/md_restart_support.hpp"
#include "md/md_test_support.hpp"
#include "solvers/md/data_file.hpp"
#include "solvers/md/lattice.hpp"

namespace surrox::solvers::md::test {
namespace {

// The LJ liquid of the LAMMPS comparison (scripts/md_npt_lammps.sh, cases/md/lj_liquid_npt.yaml)
// in shorter runs: 500 atoms, T = 1.5, P = 2, r_c = 2.5, Langevin thermostat.
std::string lj_npt(long steps, const std::string& couple = "isotropic") {
  return fmt::format(
      "lattice: {{style: fcc, density: 0.8442, replicate: [5, 5, 5]}}, "
      "velocity: {{temperature: 1.5, seed: 11}}, steps: {}, thermo: 10, dt: 0.005, "
      "pair: {{type: lj/cut}}, integrator: {{style: langevin, temperature: 1.5, damping: 0.5}}, "
      "barostat: {{style: c_rescale, pressure: 2.0, couple: {}, damping: 1.0, "
      "compressibility: 0.1}}",
      steps, couple);
}

struct Mean {
  double value = 0, stderr_ = 0;
};

// Mean of a series and its standard error from 10 blocks (the blocks longer than the
// correlation time of the volume, ~ the barostat's damping).
Mean block_mean(const std::vector<double>& x) {
  const int blocks = 10;
  const std::size_t per = x.size() / blocks;
  std::vector<double> m(blocks, 0.0);
  for (int b = 0; b < blocks; ++b) {
    for (std::size_t k = 0; k < per; ++k) m[b] += x[b * per + k];
    m[b] /= static_cast<double>(per);
  }
  Mean out;
  for (double v : m) out.value += v / blocks;
  double var = 0;
  for (double v : m) var += (v - out.value) * (v - out.value) / (blocks - 1);
  out.stderr_ = std::sqrt(var / blocks);
  return out;
}

TEST(MdBarostat, AfterBoxChangesTheEnergyAndPressureAreAFreshSystemsAtTheSameAtoms) {
  for (const char* couple : {"isotropic", "axes"}) {
    auto md = make_solver(lj_npt(400, couple));
    const double v0 = md->system().box.volume();
    while (!md->finished()) md->advance();
    const ThermoRow after = md->thermo();
    EXPECT_GT(std::fabs(after.vol / v0 - 1.0), 0.01) << couple << ": the box hardly moved";
    EXPECT_GT(md->neighbors().builds(), 5) << couple;
    const auto file = surrox::testing::scratch_dir() / fmt::format("npt_{}.data", couple);
    write_data_file(file, md->system().to_host(), "lj", md->step());
    auto fresh = make_solver(
        fmt::format("data_file: '{}', steps: 0, pair: {{type: lj/cut}}", file.string()));
    const ThermoRow ref = fresh->thermo();
    std::printf("%s: V %.6f -> %.6f, e_pair %.15g (fresh %.15g), press %.15g (fresh %.15g)\n",
                couple, v0, after.vol, after.e_pair, ref.e_pair, after.press, ref.press);
    EXPECT_NEAR(after.vol, ref.vol, 1e-12 * ref.vol) << couple;
    EXPECT_NEAR(after.e_pair, ref.e_pair, 1e-11 * std::fabs(ref.e_pair)) << couple;
    EXPECT_NEAR(after.press, ref.press, 1e-10 * std::fabs(ref.press)) << couple;
  }
}

TEST(MdBarostat, TheLjLiquidAveragesToTheTargetPressureAndLammpsDensity) {
  auto md = make_solver(lj_npt(12000));
  while (!md->finished()) md->advance();
  std::vector<double> density, press;
  for (const auto& r : md->thermo_rows())
    if (r.step > 2000) density.push_back(500.0 / r.vol), press.push_back(r.press);
  const Mean rho = block_mean(density), p = block_mean(press);
  // LAMMPS 29 Sep 2021, fix npt temp 1.5 1.5 0.5 iso 2 2 2.5 on this system
  // (scripts/lammps/in.lj_npt via scripts/md_npt_lammps.sh): 180,000 steps after 20,000 of
  // equilibration, ρ = 0.69152 ± 0.00031 (20 blocks).
  const double lammps = 0.69152, lammps_err = 0.00031;
  const double combined = std::hypot(rho.stderr_, lammps_err);
  std::printf("ρ = %.5f ± %.5f (LAMMPS %.5f ± %.5f: %.2f combined errors); P = %.4f ± %.4f\n",
              rho.value, rho.stderr_, lammps, lammps_err, (rho.value - lammps) / combined, p.value,
              p.stderr_);
  EXPECT_LT(std::fabs(rho.value - lammps), 4 * combined);
  EXPECT_LT(std::fabs(p.value - 2.0), 4 * p.stderr_ + 0.02);
}

TEST(MdBarostat, AxesRelaxAStrainedCrystalWhileIsotropicKeepsItsShape) {
  // An fcc LJ crystal at T = 0.3, P = 0, stretched 4 % along x.
  AtomData crystal = make_lattice("fcc", std::cbrt(4 / 1.05), {5, 5, 5}, 1.0);
  for (auto& x : crystal.x) x[0] *= 1.04;
  crystal.box.hi[0] *= 1.04;
  const auto file = surrox::testing::scratch_dir() / "strained.data";
  write_data_file(file, crystal, "lj", 0);
  for (const char* couple : {"axes", "isotropic"}) {
    auto md = make_solver(fmt::format(
        "data_file: '{}', velocity: {{temperature: 0.3, seed: 3}}, steps: 3000, thermo: 50, "
        "pair: {{type: lj/cut}}, integrator: {{style: langevin, temperature: 0.3, damping: 0.5}}, "
        "barostat: {{style: c_rescale, pressure: 0, couple: {}, damping: 0.5, "
        "compressibility: 0.02}}",
        file.string(), couple));
    while (!md->finished()) md->advance();
    double sx = 0, sy = 0, sz = 0;
    int n = 0;
    for (const auto& r : md->thermo_rows())
      if (r.step >= 1500) sx += r.lx, sy += r.ly, sz += r.lz, ++n;
    const double aspect = sx / (0.5 * (sy + sz));
    std::printf("%s: mean Lx/Ly %.5f, Ly/Lz %.5f\n", couple, aspect, sy / sz);
    if (std::string(couple) == "axes") {
      // The volume-keeping shape mode of 500 atoms is soft and slow: means over 1,500 steps of
      // an unstrained crystal wander by up to ±0.9 % (measured); the 4 % strain must be gone.
      EXPECT_NEAR(aspect, 1.0, 0.015);
      EXPECT_NEAR(sy / sz, 1.0, 0.015);
    } else {
      EXPECT_NEAR(aspect, 1.04, 1e-9);  // one scale for every axis
    }
  }
}

TEST(MdBarostat, ContinuationFromACheckpointIsBitwiseExact) {
  for (const char* couple : {"isotropic", "axes"}) {
    const auto diff =
        restart_difference(lj_npt(160, couple), 77, surrox::testing::scratch_dir() / couple);
    EXPECT_TRUE(diff.none()) << couple << ": " << diff.describe();
  }
}

TEST(MdBarostat, BadSectionsAreInputErrors) {
  auto expect_input_error = [](const std::string& yaml, const std::string& phrase) {
    try {
      make_solver(yaml);
      ADD_FAILURE() << "no error for " << yaml;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
    }
  };
  const std::string base = "lattice: {style: fcc, density: 0.8442, replicate: [4, 4, 4]}, ";
  expect_input_error(base + "barostat: {style: c_rescale, compressibility: 0.1}",
                     "needs a thermostat");
  expect_input_error(base + "integrator: {style: langevin}, barostat: {style: c_rescale}",
                     "compressibility");
  expect_input_error(base + "barostat: {style: mtk}", "c_rescale");
}

}  // namespace
}  // namespace surrox::solvers::md::test
