// ctest-labels: regression
// ctest-libraries: surrox_lammps surrox_families
// ctest-pch: torch
// ctest-requires: surrox_lammps
// pair_style surrox/deep conserves energy under LAMMPS's fix nve: 10,000 steps of 0.5 fs on 64
// silicon atoms from 600 K (an untrained se_e2_a model, as the engine's own NVE test), the total
// energy sampled every 100 steps. Regression, not unit: a few seconds of MD.
#include "lammps_test_support.hpp"

namespace surrox::lammps::test {
namespace {

TEST(LammpsPairNve, TenThousandStepsConserveEnergy) {
  const auto dir = surrox::testing::scratch_dir();
  const std::string model = scratch_model(dir, "model.pt", 1);
  Lammps l(dir);
  start(l, dir, silicon_frame(), "surrox/deep " + model);
  l("velocity all create 600 5 loop geom");
  l("timestep 0.0005");
  l("fix nve all nve");
  l("thermo_style custom step pe ke etotal");
  l("thermo 100");
  l("run 0");
  const double e0 = lammps_get_thermo(l.lmp.get(), "etotal");
  const double ke0 = lammps_get_thermo(l.lmp.get(), "ke");
  double drift = 0, ke_min = ke0;
  for (int block = 0; block < 100; ++block) {
    l("run 100 pre no post no");
    const double e = lammps_get_thermo(l.lmp.get(), "etotal");
    drift = std::max(drift, std::fabs(e - e0) / std::fabs(e0));
    ke_min = std::min(ke_min, lammps_get_thermo(l.lmp.get(), "ke"));
  }
  std::printf("LAMMPS NVE, 10,000 steps of 0.5 fs: max |ΔE_total|/|E_total| = %.3g\n", drift);
  EXPECT_GT(ke0, 1.0);           // the atoms do move (64 atoms at 600 K: ~4.9 eV)
  EXPECT_GT(ke_min, 0.1 * ke0);  // and keep moving
  EXPECT_LT(drift, 1e-4);
}

}  // namespace
}  // namespace surrox::lammps::test
