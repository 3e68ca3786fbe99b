// ctest-labels: regression slow
// ctest-libraries: surrox_cli
// ctest-timeout: 600
// NVE energy conservation of velocity Verlet for the LJ liquid at Δt = 0.005: 4,000 atoms at
// ρ = 0.8442 started at T = 1.44 (in.lj's state point), 10,000 steps, lists rebuilt when an
// atom has moved half the skin. The cutoff is shifted (pair_modify shift yes): with in.lj's
// unshifted cutoff the energy jumps by 4(r_c⁻¹² − r_c⁻⁶) whenever a pair crosses r_c, which is
// the model's truncation, not the integrator's error (LAMMPS's own in.lj log drifts by 2e-3
// in 100 steps for that reason).
#include "md/md_test_support.hpp"

namespace surrox::solvers::md::test {
namespace {

TEST(MdEnergyDrift, LennardJonesLiquidConservesEnergyOver10000Steps) {
  auto md = make_solver(
      "lattice: {style: fcc, density: 0.8442, replicate: [10, 10, 10]}, "
      "velocity: {temperature: 1.44, seed: 87287}, dt: 0.005, steps: 10000, thermo: 100, "
      "pair: {type: lj/cut, cutoff: 2.5, shift: true}, neighbor: {skin: 0.3}");
  ASSERT_EQ(md->natoms(), 4000);
  while (!md->finished()) md->advance();
  const auto& rows = md->thermo_rows();
  ASSERT_EQ(rows.size(), 101u);
  const double e0 = rows.front().e_total;
  double drift = 0;
  for (const auto& r : rows) drift = std::max(drift, std::fabs(r.e_total - e0) / std::fabs(e0));
  std::printf("max |E(t) - E(0)| / |E(0)| over 10000 steps: %.3e (E0 = %.6f, T_end = %.4f)\n",
              drift, e0, rows.back().temp);
  EXPECT_LT(drift, 1e-4);
  EXPECT_GT(drift, 0.0);             // the run moved
  EXPECT_LT(rows.back().temp, 1.0);  // melted: the crystal's kinetic energy went into the liquid
}

}  // namespace
}  // namespace surrox::solvers::md::test
