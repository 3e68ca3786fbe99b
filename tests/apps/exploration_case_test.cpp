// ctest-labels: unit
// ctest-libraries: surrox_families
// ctest-pch: torch
// Concurrent learning's MD exploration case (solvers/md/exploration_run.hpp) from typed values
// is the case the loop built before from formatted --set text, bit for bit: the resolved YAML
// (and so summary.json) is the same text, and the user's exploration.set still goes last.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>

#include "apps/run_case.hpp"
#include "core/yaml_json.hpp"
#include "families/builtin_families.hpp"
#include "io/case_file.hpp"
#include "solvers/md/exploration_run.hpp"
#include "support/test_paths.hpp"

namespace surrox::apps {
namespace {
namespace fs = std::filesystem;

// The --set text the loop formatted before the typed run (apps/concurrent_learning.cpp).
std::vector<std::string> exploration_case_texts(const solvers::md::ExplorationRun& run) {
  std::string list = "[";
  for (std::size_t i = 0; i < run.models.size(); ++i)
    list += (i ? ", '" : "'") + fs::absolute(run.models[i]).string() + "'";
  list += "]";
  std::vector<std::string> set = {
      fmt::format("solver.pair={{type: deep, models: {}, out_freq: {}}}", list, run.out_freq),
      fmt::format("solver.deepmd.every={}", run.out_freq),
      "solver.deepmd.first=0",
      fmt::format("solver.steps={}", run.steps),
      fmt::format("solver.integrator.temperature={:.17g}", run.temperature),
      fmt::format("solver.velocity.temperature={:.17g}", run.temperature),
      fmt::format("solver.integrator.seed={}", run.thermostat_seed),
      fmt::format("solver.velocity.seed={}", run.velocity_seed),
      "output.vtk=false",
      "output.hdf5=false"};
  if (run.pressure) {
    set.push_back("solver.barostat.style=c_rescale");
    set.push_back(fmt::format("solver.barostat.pressure={:.17g}", *run.pressure));
    set.push_back(fmt::format("solver.barostat.seed={}", run.barostat_seed));
  }
  return set;
}

solvers::md::ExplorationRun exploration_case_run(const fs::path& dir) {
  solvers::md::ExplorationRun run;
  for (const char* name : {"a.pt", "b.pt"}) {
    std::ofstream(dir / name) << "not read while loading\n";
    run.models.push_back(dir / name);
  }
  run.out_freq = 10;
  run.steps = 40;
  run.temperature = 612.3;  // not a binary fraction: its 17 digits matter
  run.thermostat_seed = 1003;
  run.velocity_seed = 2003;
  run.barostat_seed = 3003;
  return run;
}

TEST(ExplorationCase, TypedValuesGiveTheFormattedCase) {
  families::register_builtin_families();  // the deep pair
  const fs::path dir = testing::scratch_dir();
  const fs::path reference = testing::source_dir() / "cases/deep_potential/si_reference.yaml";
  solvers::md::ExplorationRun run = exploration_case_run(dir);
  const std::vector<std::string> user = {"solver.dt=0.0005", "solver.integrator.seed=7"};
  for (const std::optional<double> pressure : {std::optional<double>(), {1.1}}) {
    run.pressure = pressure;
    std::vector<std::string> texts = exploration_case_texts(run);
    texts.insert(texts.end(), user.begin(), user.end());
    const io::CaseFile before = io::load_case(reference, run_case_schema(), texts);
    io::CaseOverrides typed;
    solvers::md::add_exploration_run(run, typed);
    typed.texts(user);
    const io::CaseFile after = io::load_case(reference, run_case_schema(), typed);
    EXPECT_EQ(after.resolved_yaml(), before.resolved_yaml());
    EXPECT_EQ(yaml_to_json(after.root.yaml()), yaml_to_json(before.root.yaml()));
    const CaseNode solver = after.root.section("solver");
    EXPECT_EQ(solver.section("integrator").real("temperature"), 612.3);
    EXPECT_EQ(solver.section("integrator").integer("seed"), 7);  // the user's, last
    EXPECT_EQ(solver.section("pair").strings("models").size(), 2u);
    EXPECT_EQ(solver.section("barostat").string("style"), pressure ? "c_rescale" : "none");
  }
}

TEST(ExplorationCase, ABadTypedValueNamesTheKeyAndTheRun) {
  families::register_builtin_families();
  const fs::path dir = testing::scratch_dir();
  solvers::md::ExplorationRun run = exploration_case_run(dir);
  run.steps = -4;
  io::CaseOverrides typed;
  solvers::md::add_exploration_run(run, typed);
  try {
    io::load_case(testing::source_dir() / "cases/deep_potential/si_reference.yaml",
                  run_case_schema(), typed);
    FAIL() << "a negative step count was accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("exploration run: solver.steps=-4"), std::string::npos) << what;
    EXPECT_NE(what.find("solver.steps"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace surrox::apps
