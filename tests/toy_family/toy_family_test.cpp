// ctest-labels: unit
// ctest-libraries: surrox_test_toy_family
// ctest-pch: torch
// A surrogate family added from outside surrox's folders: tests/toy_family/support/ holds its
// model and file format (surrogates/), its data and training task (training/), its coupler
// (couplers/) and its one registration call. After that call the family trains, resumes
// exactly, evaluates, couples with a solver in a case file, adds a CLI verb, is described by
// `surrox info` and is documented in the case reference, all through the surrox commands
// themselves, run in this process.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "families/builtin_families.hpp"
#include "support/in_process_surrox.hpp"
#include "support/test_paths.hpp"
#include "toy_family/support/register_toy_family.hpp"

namespace surrox::toy {
namespace {

namespace fs = std::filesystem;

// ln(peak u) of the heat demo's sine mode at t = 0.01: −2π²·0.01·κ (amplitude 1).
constexpr double kSlope = -2 * M_PI * M_PI * 0.01;

void register_once() {
  static const bool registered = [] {
    families::register_builtin_families();
    families::FamilyRegistrar registrar;
    register_toy_family(registrar);
    return true;
  }();
  (void)registered;
}

// `surrox ARGS` in this process on the test's runtime; stdout into `out` when given.
int surrox(const std::vector<std::string>& args, std::string* out = nullptr) {
  return testing::run_surrox_in_process(args, out);
}

nlohmann::json summary(const fs::path& dir) {
  std::ifstream in(dir / "summary.json");
  return nlohmann::json::parse(in);
}

void write_rows(const fs::path& path, double from, double to, int n) {
  std::ofstream out(path);
  out << "x,y\n";
  for (int i = 0; i < n; ++i) {
    const double x = from + (to - from) * i / (n - 1);
    out << x << "," << kSlope * x << "\n";
  }
}

struct ToyRun {
  fs::path dir, config;
};

ToyRun toy_setup() {
  register_once();
  const fs::path dir = testing::scratch_dir();
  write_rows(dir / "train.csv", 0.5, 2.0, 32);
  write_rows(dir / "valid.csv", 0.55, 1.95, 8);
  std::ofstream(dir / "toy.yaml") << "family: toy\n"
                                     "runtime: {threads: 1}\n"
                                     "data: {train: train.csv, validation: valid.csv}\n"
                                     "training:\n"
                                     "  epochs: 200\n"
                                     "  batch_size: 8\n"
                                     "  checkpoint_interval: 50\n"
                                     "  optimizer: {type: adam, lr: 0.02}\n";
  return {dir, dir / "toy.yaml"};
}

TEST(ToyFamily, TrainsResumesExactlyAndEvaluates) {
  const ToyRun run = toy_setup();
  const fs::path straight = run.dir / "straight", split = run.dir / "split";
  ASSERT_EQ(surrox({"train", run.config.string(), "-o", straight.string(), "--log-level", "warn"}),
            0);
  const nlohmann::json fitted = summary(straight)["results"];
  EXPECT_EQ(fitted["family"], "toy");
  EXPECT_NEAR(fitted["model"]["slope"].get<double>(), kSlope, 2e-3);
  EXPECT_NEAR(fitted["model"]["intercept"].get<double>(), 0, 2e-3);

  // 120 epochs, then a resume to 200: the same line, bit for bit (the one Trainer's resume).
  ASSERT_EQ(surrox({"train", run.config.string(), "-o", split.string(), "--max-epochs", "120",
                    "--log-level", "warn"}),
            0);
  ASSERT_EQ(surrox({"train", run.config.string(), "-o", split.string(), "--resume",
                    (split / "checkpoint.pt").string(), "--log-level", "warn"}),
            0);
  const nlohmann::json resumed = summary(split)["results"]["model"];
  EXPECT_EQ(resumed["slope"].get<double>(), fitted["model"]["slope"].get<double>());
  EXPECT_EQ(resumed["intercept"].get<double>(), fitted["model"]["intercept"].get<double>());

  const fs::path evaluated = run.dir / "evaluate";
  ASSERT_EQ(surrox({"evaluate", (straight / "model.pt").string(), (run.dir / "valid.csv").string(),
                    "-o", evaluated.string(), "--log-level", "warn"}),
            0);
  const nlohmann::json measured = summary(evaluated)["results"];
  EXPECT_EQ(measured["family"], "toy");  // picked from the model file's metadata
  EXPECT_EQ(measured["rows"], 8);
  EXPECT_LT(measured["rmse"].get<double>(), 2e-3);

  std::string printed;
  ASSERT_EQ(surrox({"toy-line", (straight / "model.pt").string(), "--log-level", "warn"}, &printed),
            0);
  EXPECT_NE(printed.find("y = "), std::string::npos) << printed;
  // `surrox info` reads it through the loader the registration call registered.
  std::string info;
  ASSERT_EQ(surrox({"info", (straight / "model.pt").string(), "--log-level", "warn"}, &info), 0);
  for (const char* part : {"toy model", "slope", "inputs:", "x ", "[rows, 1] float64", "outputs:"})
    EXPECT_NE(info.find(part), std::string::npos) << part << " in:\n" << info;
  // A bad data file is an input error (exit 2) that names the file and line.
  std::ofstream(run.dir / "bad.csv") << "x,y\n1,2\noops\n";
  EXPECT_EQ(surrox({"evaluate", (straight / "model.pt").string(), (run.dir / "bad.csv").string(),
                    "-o", (run.dir / "bad").string(), "--log-level", "off"}),
            2);
}

TEST(ToyFamily, CouplesWithTheHeatSolverInACaseFile) {
  const ToyRun run = toy_setup();
  ASSERT_EQ(surrox({"train", run.config.string(), "-o", (run.dir / "train").string(), "--log-level",
                    "warn"}),
            0);
  std::ofstream(run.dir / "couple.yaml")
      << "solver: {type: heat, grid: {points: [33, 33], length: [1.0, 1.0]}, end_time: 0.01}\n"
         "output: {vtk: false, hdf5: false}\n"
         "sweep: {values: {solver.diffusivity: [0.7, 1.3]}}\n"
         "coupler: {type: toy_decay, model: train/model.pt}\n";
  const fs::path coupled = run.dir / "coupled";
  ASSERT_EQ(surrox({"run", (run.dir / "couple.yaml").string(), "-o", coupled.string(),
                    "--log-level", "warn"}),
            0);
  const nlohmann::json results = summary(coupled)["results"];
  ASSERT_EQ(results["cases"].size(), 2u);
  EXPECT_NEAR(results["cases"][1]["x"].get<double>(), 1.3, 1e-12);
  // The solver's discrete decay differs from the exact one by O(h²): 33 points, a few 1e-3.
  EXPECT_LT(results["max_abs_error"].get<double>(), 1e-2);
  EXPECT_GT(results["max_abs_error"].get<double>(), 0);  // a real solver run, not the formula
}

TEST(ToyFamily, IsListedAndDocumentedBesideTheBuiltInFamilies) {
  register_once();
  std::string help, reference;
  EXPECT_EQ(surrox({"--help"}, &help), 0);
  for (const char* verb : {"train", "evaluate", "concurrent-learn", "toy-line", "docs"})
    EXPECT_NE(help.find(verb), std::string::npos) << verb << " in:\n" << help;
  EXPECT_EQ(surrox({"docs", "case-reference", "--log-level", "off"}, &reference), 0);
  for (const char* part : {"`family: toy`", "`family: deep_potential`", "toy_decay", "warm_start",
                           "`surrox concurrent-learn` configs"})
    EXPECT_NE(reference.find(part), std::string::npos) << part;
}

}  // namespace
}  // namespace surrox::toy
