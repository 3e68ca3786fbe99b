// ctest-labels: regression
// ctest-libraries: surrox_cli
// ctest-pch: torch
// ctest-requires: surrox_lammps
// Concurrent learning with LAMMPS as its explorer (exploration.engine: lammps): the user's
// LAMMPS input runs under surrox-lammps with the ensemble as pair_style surrox/deep, at constant
// pressure through fix npt; its md.out and dump become the loop's model_devi.csv and frames,
// which the reference labels. A template without what the loop reads is exit 2 naming it.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "io/deepmd_system.hpp"
#include "support/test_paths.hpp"
#include "surrogates/deep_potential/model_deviation.hpp"

namespace surrox {
namespace {
namespace fs = std::filesystem;

constexpr const char* kTemplate = R"(units metal
atom_style atomic
lattice diamond 5.431
region box block 0 2 0 2 0 2
create_box 1 box
create_atoms 1 box
mass 1 28.06
velocity all create ${temp} ${seed} loop geom
pair_style surrox/deep ${models} out_freq ${out_freq} out_file md.out
pair_coeff * * Si
neighbor 1.0 bin
timestep 0.001
fix 1 all npt temp ${temp} ${temp} 0.1 iso ${press} ${press} 0.2
dump 1 all custom ${out_freq} traj.dump id type x y z
run ${steps}
)";

TEST(LammpsExploration, TheLoopExploresInLammpsAtConstantPressure) {
  const fs::path dir = testing::scratch_dir();
  std::string log;
  ASSERT_EQ(
      testing::run_surrox(
          "run " + (testing::source_dir() / "cases/deep_potential/si_reference.yaml").string() +
              " -o " + (dir / "sw").string() +
              " --log-level warn --set solver.steps=120 --set solver.deepmd.first=20 "
              "--set solver.deepmd.every=10",
          &log),
      0)
      << log;
  {
    std::ofstream(dir / "in.explore.template") << kTemplate;
    std::ofstream(dir / "in.bad") << "units metal\nrun ${steps}\n";
  }
  const std::string common =
      "concurrent-learn " +
      (testing::source_dir() / "cases/deep_potential/si_concurrent.yml").string() + " -o " +
      (dir / "learn").string() + " --set 'data.initial=[" + (dir / "sw/deepmd").string() +
      "]' --set training.models=2 --set 'training.set=[\"model.three_body={}\", "
      "training.steps=20, training.disp_freq=10]' --set exploration.temperatures=[900] "
      "--set 'exploration.pressures=[1, 100000]' --set exploration.steps=100 "
      "--set exploration.first_step=10 --set exploration.engine=lammps --set selection.lo=0 "
      "--set selection.hi=1e9 --set selection.max_candidates=3 --set iterations=2 "
      "--set 'training.reuse_set=[training.steps=10]'";
  EXPECT_EQ(testing::run_surrox(
                common + " --set exploration.lammps_input=" + (dir / "in.bad").string(), &log),
            2)
      << log;
  EXPECT_NE(log.find("no `pair_style surrox/deep ${models}"), std::string::npos) << log;
  ASSERT_EQ(testing::run_surrox(common + " --set exploration.lammps_input=" +
                                    (dir / "in.explore.template").string(),
                                &log),
            0)
      << log;
  std::ifstream summary(dir / "learn/summary.json");
  const auto it0 = nlohmann::json::parse(summary)["results"]["iterations"][0];
  ASSERT_EQ(it0["explored"].size(), 2u);
  EXPECT_EQ(it0["explored_rows"], 20);  // steps 10..100 at two pressures
  EXPECT_EQ(it0["labelled_frames"], 3);
  std::vector<double> last_volume;
  for (const char* run : {"T900_P1", "T900_P100000"}) {
    const fs::path rdir = dir / "learn/iter.000/explore" / run;
    EXPECT_TRUE(fs::exists(rdir / "log.lammps")) << run;  // LAMMPS ran it
    const auto rows = surrogates::deep_potential::read_model_devi(rdir / "model_devi.csv");
    const auto frames = io::read_deepmd_system(rdir / "deepmd");
    ASSERT_EQ(rows.size(), 11u) << run;
    ASSERT_EQ(frames.frames, 11) << run;
    EXPECT_EQ(frames.atoms(), 64);
    EXPECT_GT(rows.back().max_devi_f, 0.0) << run;  // two models disagree somewhere
    const auto volume = [&](long f) {
      return frames.box[9 * f] * frames.box[9 * f + 4] * frames.box[9 * f + 8];
    };
    EXPECT_NE(volume(0), volume(10)) << run;  // fix npt moved the box
    last_volume.push_back(volume(10));
  }
  EXPECT_LT(last_volume[1], last_volume[0]);  // 100 kbar compresses
  // The labelled frames are the reference's (SW energies: bound, negative).
  long labelled = 0;
  for (const auto& system : io::find_deepmd_systems(dir / "learn/iter.000/label")) {
    const auto frames = io::read_deepmd_system(system);
    labelled += frames.frames;
    for (double e : frames.energy) EXPECT_LT(e, 0.0);
  }
  EXPECT_EQ(labelled, 3);
}

}  // namespace
}  // namespace surrox
