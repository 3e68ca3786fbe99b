// ctest-labels: regression
// ctest-libraries: surrox_cli
// ctest-pch: torch
// Concurrent learning (DP-GEN's loop, `surrox concurrent-learn`): the selection counts rows by
// DP-GEN's trust levels and draws candidates reproducibly; labelling frames with the reference
// case reproduces the energies, forces and virials its own MD recorded (also for atoms given
// outside the box); the command runs two iterations end to end, the labelled frames join the
// next training (whose models start from the previous ones with init_from_previous), a second run
// on the same folder redoes nothing, raising `iterations` extends the loop, and another config on
// the same folder is exit 2; an exploration that blows up counts as failed rows and the loop goes
// on (iterations=2 with every row failed: nothing to label, the second iteration still runs).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "apps/candidate_selection.hpp"
#include "apps/reference_labels.hpp"
#include "core/error.hpp"
#include "io/deepmd_system.hpp"
#include "support/test_paths.hpp"

namespace surrox {
namespace {
namespace fs = std::filesystem;

surrogates::deep_potential::ModelDeviRow devi_row(long step, double max_f) {
  surrogates::deep_potential::ModelDeviRow r;
  r.step = step;
  r.max_devi_f = max_f;
  return r;
}

TEST(CandidateSelection, CountsByTrustLevelsAndDrawsReproducibly) {
  // Trajectory 0: steps 0..90; trajectory 1: steps 0..40.
  std::vector<std::vector<surrogates::deep_potential::ModelDeviRow>> rows(2);
  const double f0[] = {0.0, 0.01, 0.06, 0.2, 0.08, 0.15, 0.149, 0.05, std::nan(""), 0.1};
  for (int k = 0; k < 10; ++k) rows[0].push_back(devi_row(10 * k, f0[k]));
  const double f1[] = {0.0, 0.07, 0.09, 0.3, 0.04};
  for (int k = 0; k < 5; ++k) rows[1].push_back(devi_row(10 * k, f1[k]));
  apps::SelectionRule rule;
  rule.first_step = 10;  // the step-0 rows are not counted
  rule.max_candidates = 100;
  const apps::Selection all = apps::select_candidates(rows, rule);
  // Counted: 9 + 4 rows. Accurate: 0.01, 0.04. Failed: 0.2, 0.15 (hi is exclusive), NaN, 0.3.
  EXPECT_EQ(all.rows(), 13);
  EXPECT_EQ(all.accurate, 2);
  EXPECT_EQ(all.failed, 4);
  EXPECT_EQ(all.candidates, 7);  // 0.06 0.08 0.149 0.05 (lo is inclusive) 0.1 | 0.07 0.09
  ASSERT_EQ(all.chosen.size(), 7u);
  for (std::size_t k = 0; k + 1 < all.chosen.size(); ++k) {
    const auto &a = all.chosen[k], &b = all.chosen[k + 1];
    EXPECT_TRUE(a.trajectory < b.trajectory || (a.trajectory == b.trajectory && a.row < b.row));
  }
  for (const auto& c : all.chosen) {
    EXPECT_GE(c.max_devi_f, rule.lo);
    EXPECT_LT(c.max_devi_f, rule.hi);
    EXPECT_EQ(rows[c.trajectory][c.row].step, c.step);
  }
  EXPECT_DOUBLE_EQ(all.fraction(all.candidates), 7.0 / 13.0);

  // At most max_candidates, the same draw for the same seed, and every draw possible.
  rule.max_candidates = 3;
  const apps::Selection a = apps::select_candidates(rows, rule);
  const apps::Selection b = apps::select_candidates(rows, rule);
  ASSERT_EQ(a.chosen.size(), 3u);
  EXPECT_EQ(a.candidates, 7);
  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(a.chosen[k].step, b.chosen[k].step);
  std::set<std::pair<int, long>> seen;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    rule.seed = seed;
    for (const auto& c : apps::select_candidates(rows, rule).chosen)
      seen.insert({c.trajectory, c.row});
  }
  EXPECT_EQ(seen.size(), 7u);
}

// Frames of a short Stillinger–Weber run at `temperature`: SW energies, forces and virials.
fs::path sw_frames(const fs::path& dir, const std::string& name, int temperature, int steps) {
  std::string log;
  const std::string args =
      "run " + (testing::source_dir() / "cases/deep_potential/si_reference.yaml").string() +
      " -o " + (dir / name).string() +
      " --log-level warn --set solver.steps=" + std::to_string(steps) +
      " --set solver.deepmd.first=20 --set solver.deepmd.every=10" +
      " --set solver.integrator.temperature=" + std::to_string(temperature) +
      " --set solver.integrator.seed=" + std::to_string(temperature);
  EXPECT_EQ(testing::run_surrox(args, &log), 0) << log;
  return dir / name / "deepmd";
}

TEST(ReferenceLabels, ReproduceTheReferenceRunsOwnLabels) {
  const fs::path dir = testing::scratch_dir();
  const io::DeepmdFrames recorded = io::read_deepmd_system(sw_frames(dir, "sw", 1500, 120));
  ASSERT_EQ(recorded.frames, 11);
  // Frames 2, 5 and 9 without their labels; in frame 5 atom 0 is given one box length to the
  // right and atom 1 one to the left (the same configuration under periodicity).
  io::DeepmdFrames given;
  given.type_map = recorded.type_map;
  given.types = recorded.types;
  const long n3 = 3 * recorded.atoms();
  const std::vector<long> picked = {2, 5, 9};
  for (long f : picked) {
    given.coord.insert(given.coord.end(), recorded.coord.begin() + n3 * f,
                       recorded.coord.begin() + n3 * (f + 1));
    given.box.insert(given.box.end(), recorded.box.begin() + 9 * f,
                     recorded.box.begin() + 9 * (f + 1));
    ++given.frames;
  }
  given.coord[n3 + 0] += recorded.box[9 * 5 + 0];
  given.coord[n3 + 3 + 1] -= recorded.box[9 * 5 + 4];
  const io::DeepmdFrames labelled = apps::label_with_reference(
      testing::runtime(), testing::source_dir() / "cases/deep_potential/si_reference.yaml", {},
      given, dir / "scratch");
  EXPECT_FALSE(fs::exists(dir / "scratch"));
  ASSERT_EQ(labelled.frames, 3);
  EXPECT_EQ(labelled.types, recorded.types);
  for (long k = 0; k < 3; ++k) {
    const long f = picked[k];
    EXPECT_NEAR(labelled.energy[k], recorded.energy[f], 1e-10 * std::abs(recorded.energy[f]));
    double worst_f = 0, worst_v = 0;
    for (long q = 0; q < n3; ++q)
      worst_f =
          std::max(worst_f, std::abs(labelled.force[n3 * k + q] - recorded.force[n3 * f + q]));
    for (int q = 0; q < 9; ++q)
      worst_v =
          std::max(worst_v, std::abs(labelled.virial[9 * k + q] - recorded.virial[9 * f + q]));
    EXPECT_LT(worst_f, 1e-10) << "frame " << f;
    EXPECT_LT(worst_v, 1e-9) << "frame " << f;
  }
  // A triclinic box is refused with the reason.
  given.box[1] = 0.5;
  try {
    apps::label_with_reference(testing::runtime(),
                               testing::source_dir() / "cases/deep_potential/si_reference.yaml", {},
                               given, dir / "scratch2");
    ADD_FAILURE() << "a triclinic box was labelled";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("triclinic"), std::string::npos) << e.what();
  }
}

nlohmann::json learn_results(const fs::path& dir) {
  std::ifstream in(dir / "summary.json");
  return nlohmann::json::parse(in)["results"];
}

TEST(ConcurrentLearnCommand, IteratesContinuesAndRefusesAnotherConfig) {
  const fs::path dir = testing::scratch_dir();
  const fs::path initial = sw_frames(dir, "init", 300, 120),
                 held = sw_frames(dir, "held", 900, 120);
  // Every explored row a candidate (lo 0, hi huge): the labelling path runs on every iteration.
  const std::string common =
      "concurrent-learn " +
      (testing::source_dir() / "cases/deep_potential/si_concurrent.yml").string() + " -o " +
      (dir / "learn").string() + " --set 'data.initial=[" + initial.string() +
      "]' --set 'data.validation=[" + held.string() +
      "]' --set training.models=2 --set 'training.set=[\"model.three_body={}\", "
      "training.steps=20, training.disp_freq=10]' --set exploration.temperatures=[600,900] "
      "--set exploration.steps=40 --set exploration.first_step=10 --set selection.lo=0 "
      "--set selection.hi=1e9 --set selection.max_candidates=5 "
      "--set training.init_from_previous=true --set 'training.reuse_set=[training.steps=10]'";
  std::string log;
  // A mistake is exit 2 and does not claim the folder for its config.
  EXPECT_EQ(
      testing::run_surrox(common + " --set iterations=2 --set 'exploration.temperatures=[]'", &log),
      2)
      << log;
  EXPECT_NE(log.find("exploration.temperatures: give at least one temperature"), std::string::npos)
      << log;
  ASSERT_EQ(testing::run_surrox(common + " --set iterations=2", &log), 0) << log;
  const auto first = learn_results(dir / "learn");
  ASSERT_EQ(first["iterations"].size(), 2u);
  const auto& it0 = first["iterations"][0];
  const auto& it1 = first["iterations"][1];
  EXPECT_EQ(it0["training_frames"], 11);
  EXPECT_EQ(it0["explored_rows"], 8);  // steps 10..40 at two temperatures
  EXPECT_DOUBLE_EQ(it0["candidate_fraction"].get<double>(), 1.0);
  EXPECT_EQ(it0["labelled_frames"], 5);
  EXPECT_EQ(it1["training_frames"], 16);  // the labelled frames joined the training data
  EXPECT_EQ(it1["labelled_frames"], 0);   // the last iteration stops after exploring
  EXPECT_TRUE(it0["held_out_force_rmse"].is_number());
  EXPECT_TRUE(fs::exists(dir / "learn/model.pt"));
  EXPECT_TRUE(fs::exists(dir / "learn/iter.000/explore/T600/model_devi.csv"));
  // The labels are the reference's: SW energies of explored frames (finite, negative: bound).
  long labelled = 0;
  for (const auto& system : io::find_deepmd_systems(dir / "learn/iter.000/label")) {
    const auto frames = io::read_deepmd_system(system);
    labelled += frames.frames;
    for (double e : frames.energy) EXPECT_LT(e, 0.0);
  }
  EXPECT_EQ(labelled, 5);
  std::ifstream table(dir / "learn/iterations.csv");
  std::string line;
  int lines = 0;
  while (std::getline(table, line)) ++lines;
  EXPECT_EQ(lines, 3);
  // init_from_previous: iteration 1's models start from iteration 0's, with reuse_set applied.
  std::ifstream result(dir / "learn/iter.001/train.1/result.json");
  EXPECT_EQ(nlohmann::json::parse(result)["results"]["steps"], 10);
  std::ifstream resolved(dir / "learn/iter.001/train.1/config.resolved.yaml");
  const std::string yaml((std::istreambuf_iterator<char>(resolved)),
                         std::istreambuf_iterator<char>());
  EXPECT_NE(yaml.find("iter.000/train.1/model.pt"), std::string::npos) << yaml;

  // Again on the same folder: nothing is redone (the models are not rewritten).
  const auto stamp = fs::last_write_time(dir / "learn/iter.000/train.0/model.pt");
  ASSERT_EQ(testing::run_surrox(common + " --set iterations=2", &log), 0) << log;
  EXPECT_EQ(fs::last_write_time(dir / "learn/iter.000/train.0/model.pt"), stamp);
  const auto again = learn_results(dir / "learn");
  for (const char* key : {"training_frames", "held_out_force_rmse", "candidate_fraction"})
    EXPECT_EQ(again["iterations"][0][key], it0[key]) << key;

  // Raising `iterations` extends the loop: iteration 1 now labels, iteration 2 is new.
  ASSERT_EQ(testing::run_surrox(common + " --set iterations=3", &log), 0) << log;
  const auto extended = learn_results(dir / "learn");
  ASSERT_EQ(extended["iterations"].size(), 3u);
  EXPECT_EQ(extended["iterations"][1]["labelled_frames"], 5);
  EXPECT_EQ(extended["iterations"][2]["training_frames"], 21);

  // Another config on the same folder: exit 2, naming the folder.
  EXPECT_EQ(testing::run_surrox(common + " --set selection.max_candidates=6", &log), 2) << log;
  EXPECT_NE(log.find("holds a concurrent-learning run of another config"), std::string::npos)
      << log;
  // A wrong key: exit 2 with the valid choices.
  EXPECT_EQ(testing::run_surrox(common + " --set selection.low=0.1", &log), 2) << log;
}

// DP-GEN's `ensemble: npt`: with exploration.pressures each temperature is explored at each
// pressure by the barostat of the reference case, and the frames carry the changing boxes.
TEST(ConcurrentLearnCommand, ExploresAtConstantPressure) {
  const fs::path dir = testing::scratch_dir();
  const fs::path initial = sw_frames(dir, "init", 300, 120);
  std::string log;
  ASSERT_EQ(
      testing::run_surrox(
          "concurrent-learn " +
              (testing::source_dir() / "cases/deep_potential/si_concurrent.yml").string() + " -o " +
              (dir / "learn").string() + " --set 'data.initial=[" + initial.string() +
              "]' --set training.models=2 --set 'training.set=[\"model.three_body={}\", "
              "training.steps=20, training.disp_freq=10]' --set exploration.temperatures=[900] "
              "--set 'exploration.pressures=[1, 100000]' --set exploration.steps=100 --set "
              "exploration.first_step=10 --set 'exploration.set=[solver.barostat.damping=0.2]' "
              "--set iterations=1",
          &log),
      0)
      << log;
  const auto it0 = learn_results(dir / "learn")["iterations"][0];
  ASSERT_EQ(it0["explored"].size(), 2u);
  EXPECT_EQ(it0["explored"][0]["pressure"], 1.0);
  EXPECT_EQ(it0["explored"][1]["pressure"], 100000.0);
  EXPECT_EQ(it0["explored_rows"], 20);  // steps 10..100 at two pressures
  std::vector<double> last_volume;
  for (const char* run : {"T900_P1", "T900_P100000"}) {
    const auto frames = io::read_deepmd_system(dir / "learn/iter.000/explore" / run / "deepmd");
    ASSERT_GT(frames.frames, 2) << run;
    const auto volume = [&](long f) {
      return frames.box[9 * f] * frames.box[9 * f + 4] * frames.box[9 * f + 8];
    };
    EXPECT_NE(volume(0), volume(frames.frames - 1)) << run << ": the box did not change";
    last_volume.push_back(volume(frames.frames - 1));
  }
  EXPECT_LT(last_volume[1], last_volume[0]);  // 100 kbar compresses
}

// An exploration the models drive to a blow-up (here a 0.5 ps time step) is not an error of the
// loop: its run counts as failed, every row it would have written is a failed row, and nothing
// of it is labelled.
TEST(ConcurrentLearnCommand, AnExplorationThatBlowsUpCountsAsFailed) {
  const fs::path dir = testing::scratch_dir();
  const fs::path initial = sw_frames(dir, "init", 300, 120);
  std::string log;
  ASSERT_EQ(
      testing::run_surrox(
          "concurrent-learn " +
              (testing::source_dir() / "cases/deep_potential/si_concurrent.yml").string() + " -o " +
              (dir / "learn").string() + " --set 'data.initial=[" + initial.string() +
              "]' --set training.models=2 --set 'training.set=[\"model.three_body={}\", "
              "training.steps=20, training.disp_freq=10]' --set "
              "'training.reuse_set=[training.steps=10]' --set "
              "exploration.temperatures=[600,900] --set exploration.steps=40 --set "
              "exploration.first_step=10 --set 'exploration.set=[solver.dt=0.5]' --set "
              "iterations=2",
          &log),
      0)
      << log;
  const auto it0 = learn_results(dir / "learn")["iterations"][0];
  EXPECT_EQ(it0["explored_rows"], 8);
  EXPECT_DOUBLE_EQ(it0["failed_fraction"].get<double>(), 1.0);
  EXPECT_EQ(it0["labelled_frames"], 0);
  EXPECT_EQ(learn_results(dir / "learn")["iterations"].size(), 2u);
  for (const auto& run : it0["explored"])
    EXPECT_NE(run.value("run_failed", "").find("lost"), std::string::npos) << run.dump();
}

}  // namespace
}  // namespace surrox
