// ctest-labels: unit regression
// ctest-libraries: surrox_cli
// Parameter sweeps: expansion (product and zip), every case checked before any runs, the
// merged sweep dataset equal to separate runs of each case, and an interrupted sweep that
// resumes by running only what is missing.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "apps/run_case.hpp"
#include "apps/run_driver.hpp"
#include "apps/sweep_case_arrays.hpp"
#include "apps/sweep_runner.hpp"
#include "core/error.hpp"
#include "core/runtime.hpp"
#include "io/case_file.hpp"
#include "io/hdf5_dataset.hpp"
#include "io/hdf5_sweep.hpp"
#include "support/test_paths.hpp"

namespace surrox::apps {
namespace {

const char* kSweepCase = R"(
solver:
  type: heat
  grid: {points: [17, 17], length: [1.0, 1.0]}
  end_time: 0.005
output: {vtk: false}
sweep:
  values:
    solver.diffusivity: [0.5, 1.0]
    solver.modes: [[1, 1], [2, 1], [1, 3]]
)";

std::filesystem::path write_case(const std::filesystem::path& dir, const std::string& text) {
  const auto path = dir / "sweep.yaml";
  std::ofstream(path) << text;
  return path;
}

TEST(Sweep, ProductVariesTheLastKeyFastest) {
  const io::CaseFile c = io::load_case_text(kSweepCase, "sweep.yaml", run_case_schema());
  ASSERT_TRUE(is_sweep(c));
  const auto points = expand_sweep(c);
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(points[0].name, "case_0000");
  EXPECT_EQ(points[0].values.at("solver.diffusivity"), "0.5");
  EXPECT_EQ(points[1].values.at("solver.diffusivity"), "0.5");
  EXPECT_EQ(points[1].values.at("solver.modes"), "[2, 1]");
  EXPECT_EQ(points[3].values.at("solver.diffusivity"), "1.0");
  EXPECT_EQ(points[5].values.at("solver.modes"), "[1, 3]");
}

TEST(Sweep, ZipPairsValuesAndRejectsUnequalLists) {
  std::string text = kSweepCase;
  text += "  combine: zip\n";
  EXPECT_THROW(expand_sweep(io::load_case_text(text, "sweep.yaml", run_case_schema())), InputError);
  const io::CaseFile c =
      io::load_case_text(text, "sweep.yaml", run_case_schema(),
                         {"sweep.values={solver.diffusivity: [0.5, 1.0], solver.cfl: [0.5, 0.9]}"});
  const auto points = expand_sweep(c);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[1].values.at("solver.cfl"), "0.9");
  EXPECT_EQ(points[1].values.at("solver.diffusivity"), "1.0");
}

TEST(Sweep, CaseWithoutValuesIsNotASweep) {
  const io::CaseFile c =
      io::load_case_text("solver: {type: heat}\n", "one.yaml", run_case_schema());
  EXPECT_FALSE(is_sweep(c));
}

TEST(Sweep, BadValueStopsTheSweepBeforeAnyCaseRuns) {
  const auto dir = surrox::testing::scratch_dir();
  std::string text = kSweepCase;
  text.replace(text.find("[0.5, 1.0]"), 10, "[0.5, -1.0]");
  const auto path = write_case(dir, text);
  SweepOptions options{path, {}, dir / "out"};
  const io::CaseFile c = io::load_case(path, run_case_schema());
  try {
    run_sweep(surrox::testing::runtime(), c, options);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("case_0003"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("solver.diffusivity"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "out" / "cases"));
}

TEST(Sweep, DatasetHoldsEachCaseAsASeparateRunWouldAndResumes) {
  const auto dir = surrox::testing::scratch_dir();
  const auto path = write_case(dir, kSweepCase);
  SweepOptions options{path, {}, dir / "out"};
  const io::CaseFile c = io::load_case(path, run_case_schema());
  const nlohmann::json first = run_sweep(surrox::testing::runtime(), c, options);
  EXPECT_EQ(first["cases_run"], 6);
  EXPECT_EQ(first["cases_failed"], 0);

  const io::SweepDatasetReader sweep(dir / "out" / "sweep.h5");
  ASSERT_EQ(sweep.cases(), 6u);
  EXPECT_EQ(sweep.parameter("solver.diffusivity"),
            (std::vector<double>{0.5, 0.5, 0.5, 1.0, 1.0, 1.0}));
  EXPECT_EQ(sweep.parameter_text("solver.modes")[2], "[1, 3]");
  EXPECT_THROW(sweep.parameter("solver.modes"), InputError);
  const auto errors = sweep.result("error_max_relative");
  ASSERT_EQ(errors.size(), 6u);
  for (double e : errors) EXPECT_LT(e, 0.05);

  // Case 4 (κ = 1, modes [2, 1]) run on its own gives the same final field, bit for bit.
  const auto points = expand_sweep(c);
  std::vector<std::string> overrides = points[4].overrides();
  const io::CaseFile single = io::load_case(path, run_case_schema(), overrides);
  RunOptions run;
  run.output_dir = dir / "single";
  std::filesystem::create_directories(run.output_dir);
  run_solver(surrox::testing::runtime(), single, run);
  const io::Hdf5DatasetReader reference(run.output_dir / "fields.h5");
  for (const auto& field : reference.fields()) {
    const auto expected = reference.read(field.name, reference.steps() - 1);
    const auto got = sweep.read(field.name, 4);
    ASSERT_EQ(got.extent(0), expected.extent(0));
    for (std::size_t i = 0; i < got.extent(0); ++i)
      for (std::size_t k = 0; k < got.extent(1); ++k)
        ASSERT_EQ(got(i, k), expected(i, k)) << field.name;
  }

  // Interrupt: case 2 never finished. The rerun runs it alone and rebuilds the same dataset.
  std::filesystem::remove(dir / "out" / "cases" / "case_0002" / "case.json");
  const nlohmann::json second = run_sweep(surrox::testing::runtime(), c, options);
  EXPECT_EQ(second["cases_run"], 1);
  EXPECT_EQ(second["cases_skipped"], 5);
  const io::SweepDatasetReader again(dir / "out" / "sweep.h5");
  const auto a = sweep.read("u", 2), b = again.read("u", 2);
  for (std::size_t i = 0; i < a.extent(0); ++i) ASSERT_EQ(a(i, 0), b(i, 0));

  // A changed case is not "finished": a different end time reruns everything.
  SweepOptions changed = options;
  changed.overrides = {"solver.end_time=0.004"};
  const io::CaseFile c2 = io::load_case(path, run_case_schema(), changed.overrides);
  EXPECT_EQ(run_sweep(surrox::testing::runtime(), c2, changed)["cases_run"], 6);
}

TEST(SweepDataset, ForeignFileIsInputError) {
  const auto dir = surrox::testing::scratch_dir();
  const auto missing = dir / "none.h5";
  EXPECT_THROW(io::SweepDatasetReader{missing}, InputError);
  std::ofstream(dir / "text.h5") << "not hdf5";
  EXPECT_THROW(io::SweepDatasetReader{dir / "text.h5"}, InputError);
}

// The solver's own additions to its cases (apps/sweep_case_arrays.hpp): an airfoil sweep's
// dataset carries the surface Cp and Cf per case, a heat sweep's does not.
TEST(Sweep, AirfoilCasesCarryTheirSurfaceAndOthersDoNot) {
  EXPECT_EQ(sweep_case_arrays().count("airfoil"), 1u);
  EXPECT_EQ(sweep_case_arrays().count("heat"), 0u);
  const auto dir = surrox::testing::scratch_dir();
  const auto path = write_case(dir, R"(
solver:
  type: airfoil
  mach: 0.5
  max_iterations: 5
  mesh: {cells_around: 32, cells_normal: 16, first_cell_height: 0.03, farfield_radius: 8}
output: {vtk: false, checkpoint: false}
sweep:
  values:
    solver.alpha_deg: [0, 1]
)");
  SweepOptions options{path, {}, dir / "out"};
  const io::CaseFile c = io::load_case(path, run_case_schema());
  EXPECT_EQ(run_sweep(surrox::testing::runtime(), c, options)["cases_run"], 2);
  auto names = [](const io::SweepDatasetReader& sweep) {
    std::vector<std::string> out;
    for (const auto& field : sweep.fields()) out.push_back(field.name);
    return out;
  };
  const auto airfoil = names(io::SweepDatasetReader(dir / "out" / "sweep.h5"));
  EXPECT_NE(std::find(airfoil.begin(), airfoil.end(), "wall_cp"), airfoil.end());
  EXPECT_NE(std::find(airfoil.begin(), airfoil.end(), "wall_cf"), airfoil.end());

  std::filesystem::create_directories(dir / "heat");
  const auto heat_path = write_case(dir / "heat", kSweepCase);
  SweepOptions heat_options{heat_path, {}, dir / "heat_out"};
  run_sweep(surrox::testing::runtime(), io::load_case(heat_path, run_case_schema()), heat_options);
  const auto heat = names(io::SweepDatasetReader(dir / "heat_out" / "sweep.h5"));
  EXPECT_EQ(std::find(heat.begin(), heat.end(), "wall_cp"), heat.end());
}

}  // namespace
}  // namespace surrox::apps
