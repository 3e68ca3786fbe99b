// ctest-labels: unit
// ctest-libraries: surrox_cli
// The MD restart matrix (issue 39): every integrator and both pair styles, restarted at each
// kind of special step (a spatial sort with its neighbour build, an RDF sample, a dump frame, a
// DeePMD frame, a thermo row, a plain step between builds), continue bit for bit and write the
// same files as the straight run. Sorts every 20 steps so that a 60-step run holds several; the
// sort on a restart step is the bug the issue found (positions put back on other atoms).
#include <fmt/format.h>

#include "md/md_restart_support.hpp"

namespace surrox::solvers::md::test {
namespace {

struct RestartCase {
  const char* name;
  std::string yaml;
};

std::vector<RestartCase> restart_cases() {
  const std::string lj = fmt::format(
      "data_file: '{}', steps: 60, thermo: 10, dump: 25, rdf: {{bins: 20, every: 15}}, "
      "pair: {{type: lj/cut}}, ",
      (md_dir() / "lj_n5.data").string());
  const std::string every_step = "neighbor: {every: 1, check: false, sort: 20}, ";
  const std::string when_moved = "neighbor: {every: 1, check: true, sort: 20, skin: 0.1}, ";
  const std::string sw = fmt::format(
      "units: metal, data_file: '{}', steps: 60, dt: 0.001, thermo: 10, dump: 25, "
      "deepmd: {{every: 10, type_map: [Si]}}, pair: {{type: sw, file: '{}', elements: Si}}, "
      "neighbor: {{skin: 1.0, every: 1, check: false, sort: 20}}, ",
      (md_dir() / "sw_n3.data").string(), (md_dir() / "Si.sw").string());
  return {
      {"lj_nve_built_every_step", lj + every_step + "integrator: {style: nve}"},
      {"lj_nve_built_when_moved", lj + when_moved + "integrator: {style: nve}"},
      {"lj_langevin",
       lj + every_step + "integrator: {style: langevin, temperature: 0.8, damping: 0.5}"},
      {"lj_nose_hoover",
       lj + when_moved + "integrator: {style: nose_hoover, temperature: 0.8, damping: 0.5}"},
      {"sw_langevin_deepmd", sw + "integrator: {style: langevin, temperature: 1200, damping: 0.1}"},
  };
}

// 15 an RDF sample, 20 and 40 sorts (with thermo rows), 25 a dump frame, 30 a DeePMD frame
// and thermo row, 33 a plain step.
constexpr long kRestartSteps[] = {15, 20, 25, 30, 33, 40};

TEST(MdRestartMatrix, EveryIntegratorAndPairStyleContinuesBitwiseAtEverySpecialStep) {
  const auto scratch = surrox::testing::scratch_dir();
  int tried = 0;
  for (const RestartCase& c : restart_cases()) {
    for (long step : kRestartSteps) {
      const auto dir = scratch / fmt::format("{}_{}", c.name, step);
      const RestartDifference d = restart_difference(c.yaml, step, dir);
      EXPECT_TRUE(d.none()) << c.name << " restarted at step " << step << ": " << d.describe();
      ++tried;
    }
  }
  EXPECT_EQ(tried, 30);
}

TEST(MdRestartMatrix, TheCheckCanFail) {
  // A perturbed checkpoint (one velocity off in its 12th digit) must show up as a difference.
  const auto scratch = surrox::testing::scratch_dir();
  const RestartCase c = restart_cases().front();
  auto straight = make_solver(c.yaml);
  run_to_end_and_finalize(*straight, scratch / "straight");
  auto first = make_solver(c.yaml);
  while (first->step() < 20) first->advance();
  io::Hdf5Checkpoint saved;
  first->save_state(saved);
  for (auto& a : saved.arrays)
    if (a.name == "md_v") a.values(0, 0) *= 1 + 1e-12;
  auto second = make_solver(c.yaml);
  second->load_state(saved);
  run_to_end_and_finalize(*second, scratch / "restarted");
  EXPECT_NE(file_bytes(scratch / "straight" / "final.data"),
            file_bytes(scratch / "restarted" / "final.data"));
}

}  // namespace
}  // namespace surrox::solvers::md::test
