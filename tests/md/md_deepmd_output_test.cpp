// ctest-libraries: surrox_cli
// ctest-ranks: 2
// ctest-labels: unit mpi
// The MD engine's DeePMD-kit frames (solver.deepmd): Stillinger–Weber silicon under a Langevin
// thermostat on 2 ranks writes every 5th step; the labels are the potential's own: energy =
// thermo's pe, Σ f = 0, trace of the virial tensor = the virial in thermo's pressure (an
// independent tally: per-atom ev_tally against LAMMPS's Σ x·f), box and atom count right;
// recording leaves the trajectory bitwise unchanged; lj units are refused.
#include <gtest/gtest.h>
#include <mpi.h>

#include "core/error.hpp"
#include "io/deepmd_system.hpp"
#include "md_test_support.hpp"

namespace surrox::solvers::md::test {
namespace {

std::string si_case(long every) {
  return "units: metal, lattice: {style: diamond, constant: 5.431, replicate: [2, 2, 2], mass: "
         "28.06}, velocity: {temperature: 1500, seed: 7}, integrator: {style: langevin, "
         "temperature: 1200, damping: 0.05}, dt: 0.001, steps: 20, thermo: 5, neighbor: {skin: "
         "1.0}, pair: {type: sw, file: '" +
         (md_dir() / "Si.sw").string() +
         "', elements: Si}, deepmd: {every: " + std::to_string(every) + ", set_size: 3}";
}

TEST(MdDeepmdOutput, FramesHoldThePotentialsLabels) {
  auto md = make_solver(si_case(5));
  auto plain = make_solver(si_case(0));
  std::vector<ThermoRow> rows{md->thermo()};
  while (!md->finished()) {
    md->advance();
    plain->advance();
    if (md->step() % 5 == 0) rows.push_back(md->thermo());
  }
  // Recording recomputes forces but keeps the thermostat's: same trajectory, bit for bit.
  EXPECT_EQ(md->thermo().e_total, plain->thermo().e_total);
  const auto dir = surrox::testing::scratch_dir();
  nlohmann::json results;
  md->finalize(dir, results);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) return;
  EXPECT_EQ(results["deepmd"]["frames"], 5);
  EXPECT_TRUE(std::filesystem::exists(dir / "deepmd/set.001/force.npy"));  // 3 + 2 frames
  const io::DeepmdFrames f = io::read_deepmd_system(dir / "deepmd");
  ASSERT_EQ(f.frames, 5);
  ASSERT_EQ(f.atoms(), 64);
  EXPECT_EQ(f.type_map, std::vector<std::string>{"Si"});
  const double a = 2 * 5.431, volume = a * a * a;
  const Units u = Units::from_name("metal");
  for (long k = 0; k < 5; ++k) {
    EXPECT_NEAR(f.energy[k], rows[k].e_pair, 1e-10 * std::fabs(rows[k].e_pair)) << k;
    double sum[3] = {0, 0, 0};
    for (long i = 0; i < 64; ++i)
      for (int d = 0; d < 3; ++d) {
        sum[d] += f.force[k * 192 + 3 * i + d];
        const double x = f.coord[k * 192 + 3 * i + d];
        EXPECT_TRUE(x >= 0 && x < a) << x;
      }
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(sum[d], 0.0, 1e-10);
    EXPECT_EQ(f.box[9 * k], a);
    EXPECT_EQ(f.box[9 * k + 1], 0.0);
    const double* w = &f.virial[9 * k];
    EXPECT_EQ(w[1], w[3]);
    // press = (2 KE + W) / (3V) · nktv2p with W = trace: the virial from thermo's pressure.
    const double ke2 = 2 * rows[k].e_kin;
    const double w_thermo = rows[k].press * 3 * volume / u.nktv2p - ke2;
    EXPECT_NEAR(w[0] + w[4] + w[8], w_thermo, 1e-8 * std::fabs(w_thermo) + 1e-9) << k;
  }
}

TEST(MdDeepmdOutput, LjUnitsAreRefused) {
  try {
    make_solver("lattice: {style: fcc, density: 0.8442, replicate: [6, 6, 6]}, deepmd: {every: 1}");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("units: metal"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace surrox::solvers::md::test
