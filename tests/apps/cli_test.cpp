// ctest-labels: regression
// ctest-libraries: surrox_io_vtk surrox_io_hdf5
// ctest-timeout: 600
// The surrox executable as users and scripts see it: --help, exit codes (0 success, 2 bad
// input, 1 runtime failure), summary.json, the files a run leaves, info and convert.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "io/hdf5_dataset.hpp"
#include "io/vtk_reader.hpp"
#include "support/test_paths.hpp"

namespace surrox {
namespace {

namespace fs = std::filesystem;
using surrox::testing::run_surrox;

std::string cli_read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

nlohmann::json summary_of(const fs::path& dir) {
  return nlohmann::json::parse(cli_read_text(dir / "summary.json"));
}

void expect_contains(const std::string& text, const std::string& part) {
  EXPECT_NE(text.find(part), std::string::npos) << "expected '" << part << "' in:\n" << text;
}

// No temporary file may survive a command, successful or not.
void expect_no_temporaries(const fs::path& dir) {
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    EXPECT_EQ(entry.path().string().find(".tmp-"), std::string::npos) << entry.path();
}

fs::path demo_case() { return surrox::testing::source_dir() / "cases/demo/heat.yaml"; }

TEST(Cli, HelpForTheToolAndEveryCommand) {
  std::string out;
  EXPECT_EQ(run_surrox("--help", &out), 0);
  for (const char* command : {"run", "validate", "info", "convert", "docs"})
    expect_contains(out, command);
  for (const char* command : {"run", "validate", "info", "convert", "docs"}) {
    EXPECT_EQ(run_surrox(std::string(command) + " --help", &out), 0) << command;
    expect_contains(out, "-o,--output");
    expect_contains(out, "Exit codes: 0 success, 2 bad input, 1 runtime failure");
  }
  EXPECT_EQ(run_surrox("--version", &out), 0);
  expect_contains(out, "surrox 0.");
}

TEST(Cli, CommandLineMistakesExitWithTwo) {
  std::string out;
  EXPECT_EQ(run_surrox("", &out), 2);
  EXPECT_EQ(run_surrox("frobnicate", &out), 2);
  EXPECT_EQ(run_surrox("run", &out), 2);  // missing CASE
  EXPECT_EQ(run_surrox("run " + demo_case().string() + " --threads -3", &out), 2);
}

TEST(Cli, RunWritesFieldsDatasetAndSummary) {
  const fs::path dir = surrox::testing::scratch_dir();
  std::string out;
  ASSERT_EQ(run_surrox("run " + demo_case().string() + " -o " + dir.string() +
                           " --set solver.grid.points=[33,33] --set output.interval=0.025",
                       &out),
            0)
      << out;
  const auto s = summary_of(dir);
  EXPECT_EQ(s["status"], "ok");
  EXPECT_EQ(s["command"], "run");
  EXPECT_GT(s["wall_time_s"].get<double>(), 0.0);
  EXPECT_EQ(s["case"]["solver"]["type"], "heat");
  EXPECT_EQ(s["case"]["solver"]["grid"]["points"], nlohmann::json::parse("[33, 33]"));
  EXPECT_EQ(s["configuration"]["mpi_ranks"], 1);
  EXPECT_EQ(s["configuration"]["blas"], "OpenBLAS (OpenMP)");
  EXPECT_EQ(s["configuration"]["kokkos_execution_space"], "Serial");
  const auto& r = s["results"];
  EXPECT_LT(r["diagnostics"]["error_max_relative"].get<double>(), 2e-3);
  EXPECT_DOUBLE_EQ(r["time"].get<double>(), 0.05);
  EXPECT_TRUE(r["fields"]["u"]["zero_copy"].get<bool>());
  EXPECT_NEAR(r["fields"]["u"]["max"].get<double>(), std::exp(-2 * M_PI * M_PI * 0.05), 2e-3);
  EXPECT_EQ(r["outputs"]["writes"], 3);  // t = 0, 0.025, 0.05

  // The same fields through every output: VTK series, HDF5 dataset, resolved case.
  const auto series = io::read_vtk(dir / "fields.pvd");
  ASSERT_EQ(series.entries.size(), 3u);
  EXPECT_DOUBLE_EQ(series.entries.back().time, 0.05);
  EXPECT_EQ(series.entries.back().mesh.number_of_points(), 33u * 33u);
  io::Hdf5DatasetReader h5(dir / "fields.h5");
  ASSERT_EQ(h5.steps(), 3u);
  const auto u_h5 = h5.read("u", 2);
  const auto* u_vtk = series.entries.back().mesh.find_point_array("u");
  ASSERT_NE(u_vtk, nullptr);
  for (std::size_t i = 0; i < u_h5.extent(0); ++i) ASSERT_EQ(u_h5(i, 0), u_vtk->values(i, 0));
  expect_contains(h5.case_yaml(), "type: heat");
  EXPECT_TRUE(fs::exists(dir / "fields.xdmf"));
  expect_contains(cli_read_text(dir / "case.resolved.yaml"), "diffusivity: 1.0");
  expect_no_temporaries(dir);
}

TEST(Cli, BadCasesExitWithTwoAndSayWhere) {
  const fs::path dir = surrox::testing::scratch_dir();
  std::ofstream(dir / "typo.yaml") << "solver:\n  type: heat\n  diffusivty: 2\n";
  std::string out;
  EXPECT_EQ(run_surrox("validate " + (dir / "typo.yaml").string() + " -o " + dir.string(), &out),
            2);
  expect_contains(
      out,
      "typo.yaml:3:3: solver.diffusivty: unknown key 'diffusivty' (did you mean 'diffusivity'?)");
  EXPECT_EQ(run_surrox("run " + (dir / "missing.yaml").string() + " -o " + dir.string(), &out), 2);
  expect_contains(out, "missing.yaml: no such case file");
  EXPECT_EQ(
      run_surrox("run " + demo_case().string() + " -o " + dir.string() + " --set solver.cfl=2",
                 &out),
      2);
  expect_contains(out, "--set solver.cfl=2: solver.cfl: value 2 out of range; allowed: (0, 1]");
  EXPECT_EQ(
      run_surrox("run " + demo_case().string() + " -o " + dir.string() + " --set solver.type=hot",
                 &out),
      2);
  expect_contains(out, "unknown solver type 'hot' (did you mean 'heat'?)");
  EXPECT_FALSE(fs::exists(dir / "summary.json"));
}

TEST(Cli, ValidatePrintsTheResolvedCase) {
  const fs::path dir = surrox::testing::scratch_dir();
  std::string out;
  ASSERT_EQ(run_surrox("validate " + demo_case().string() + " -o " + dir.string(), &out), 0) << out;
  expect_contains(out, "cfl: 0.9");
  EXPECT_TRUE(summary_of(dir)["results"]["valid"].get<bool>());
}

TEST(Cli, ADivergingRunExitsWithOneAndSaysWhen) {
  const fs::path dir = surrox::testing::scratch_dir();
  std::string out;
  // 1e308 overflows on the first Laplacian: the run must stop, not write garbage on.
  EXPECT_EQ(run_surrox("run " + demo_case().string() + " -o " + dir.string() +
                           " --set solver.amplitude=1e308 --set solver.grid.points=[17,17]",
                       &out),
            1);
  expect_contains(out, "the run diverged at step 1");
  EXPECT_FALSE(fs::exists(dir / "summary.json"));
  EXPECT_FALSE(
      fs::exists(dir / "fields.h5"));  // an unfinished dataset never appears under its name
  expect_no_temporaries(dir);
}

TEST(Cli, InfoDescribesParaViewAndHdf5Files) {
  const fs::path dir = surrox::testing::scratch_dir();
  std::string out;
  ASSERT_EQ(
      run_surrox("info " + surrox::testing::shared_data("paraview/wavelet_zlib.vti").string() +
                     " -o " + dir.string(),
                 &out),
      0)
      << out;
  expect_contains(out, "9261 points, 8000 cells");
  expect_contains(out, "RTData");
  const auto entry = summary_of(dir)["results"]["datasets"]["entries"][0];
  EXPECT_NEAR(entry["point_arrays"][0]["range"][0].get<double>(), 37.3531, 1e-3);
  EXPECT_NEAR(entry["point_arrays"][0]["range"][1].get<double>(), 276.8288, 1e-3);

  ASSERT_EQ(run_surrox("info " + surrox::testing::shared_data("paraview/timeseries.pvd").string() +
                           " -o " + dir.string(),
                       &out),
            0);
  EXPECT_EQ(summary_of(dir)["results"]["datasets"]["entries"].size(), 10u);
}

TEST(Cli, PrintingCommandsLeaveNoFolderWithoutOutputOption) {
  const fs::path dir = surrox::testing::scratch_dir() / "cwd";
  fs::create_directories(dir);
  const std::string vti = surrox::testing::shared_data("paraview/wavelet_zlib.vti").string();
  auto in_dir = [&](const std::string& args) {
    return "sh -c 'cd " + dir.string() + " && " + surrox::testing::surrox_executable().string() +
           " " + args + "'";
  };
  std::string out;
  ASSERT_EQ(surrox::testing::run_command(in_dir("info " + vti), &out), 0) << out;
  ASSERT_EQ(surrox::testing::run_command(in_dir("convert " + vti + " wavelet.h5"), &out), 0) << out;
  EXPECT_TRUE(fs::exists(dir / "wavelet.h5"));
  for (const auto& entry : fs::directory_iterator(dir))  // the converted file and its sidecar only
    EXPECT_EQ(entry.path().stem(), "wavelet") << entry.path() << " was left behind";
  ASSERT_EQ(surrox::testing::run_command(in_dir("info --help"), &out), 0);
  expect_contains(out, "nothing is written");
  // validate and docs print their answer too: no out/ folder in the current one.
  ASSERT_EQ(surrox::testing::run_command(in_dir("validate -q " + demo_case().string()), &out), 0)
      << out;
  ASSERT_EQ(surrox::testing::run_command(in_dir("docs case-reference"), &out), 0) << out;
  EXPECT_FALSE(fs::exists(dir / "out")) << "validate or docs left out/ behind";
}

TEST(Cli, ConvertsASeriesToHdf5AndBack) {
  const fs::path dir = surrox::testing::scratch_dir();
  std::string out;
  const fs::path pvd = surrox::testing::shared_data("paraview/timeseries.pvd");
  ASSERT_EQ(run_surrox("convert " + pvd.string() + " " + (dir / "series.h5").string() + " -o " +
                           dir.string(),
                       &out),
            0)
      << out;
  ASSERT_EQ(run_surrox("info " + (dir / "series.h5").string() + " -o " + dir.string(), &out), 0)
      << out;
  expect_contains(out, "/fields/Point Value");
  ASSERT_EQ(run_surrox("convert " + (dir / "series.h5").string() + " " +
                           (dir / "back.pvd").string() + " -o " + dir.string(),
                       &out),
            0)
      << out;
  const auto original = io::read_vtk(pvd);
  const auto back = io::read_vtk(dir / "back.pvd");
  ASSERT_EQ(back.entries.size(), original.entries.size());
  for (std::size_t step = 0; step < back.entries.size(); ++step) {
    EXPECT_DOUBLE_EQ(back.entries[step].time, original.entries[step].time);
    for (const auto& array : original.entries[step].mesh.point_data) {
      const auto* copy = back.entries[step].mesh.find_point_array(array.name);
      ASSERT_NE(copy, nullptr) << array.name;
      for (std::size_t i = 0; i < array.values.size(); ++i)
        ASSERT_EQ(copy->values.data()[i], array.values.data()[i]) << array.name;
    }
  }
  expect_no_temporaries(dir);
}

TEST(Cli, CorruptInputFilesExitWithTwo) {
  const fs::path dir = surrox::testing::scratch_dir();
  auto truncated_copy = [&](const fs::path& from, const std::string& name) {
    const std::string text = cli_read_text(from);
    std::ofstream(dir / name, std::ios::binary) << text.substr(0, text.size() / 2);
    return dir / name;
  };
  std::string out;
  for (const auto& file :
       {truncated_copy(surrox::testing::shared_data("paraview/wavelet_zlib.vti"), "half.vti"),
        truncated_copy(surrox::testing::shared_data("paraview/wavelet_clip_binary.vtu"),
                       "half.vtu"),
        truncated_copy(surrox::testing::shared_data("paraview/timeseries.pvd"), "half.pvd")}) {
    EXPECT_EQ(run_surrox("info " + file.string() + " -o " + dir.string(), &out), 2) << out;
    expect_contains(out, file.filename().string());
  }
  // A truncated HDF5 dataset written by surrox itself.
  ASSERT_EQ(
      run_surrox("convert " + surrox::testing::shared_data("paraview/wavelet_zlib.vti").string() +
                     " " + (dir / "whole.h5").string() + " -o " + dir.string(),
                 &out),
      0)
      << out;
  const fs::path half_h5 = truncated_copy(dir / "whole.h5", "half.h5");
  EXPECT_EQ(run_surrox("convert " + half_h5.string() + " " + (dir / "x.pvd").string() + " -o " +
                           dir.string(),
                       &out),
            2)
      << out;
  expect_contains(out, "half.h5");
  EXPECT_EQ(run_surrox("info " + (dir / "nothing.vtu").string() + " -o " + dir.string(), &out), 2);
}

TEST(Cli, CaseReferenceIsUpToDate) {
  std::string generated;
  ASSERT_EQ(run_surrox(
                "docs case-reference --log-level off -o " + surrox::testing::scratch_dir().string(),
                &generated),
            0);
  const std::string committed =
      cli_read_text(surrox::testing::source_dir() / "docs/case-reference.md");
  EXPECT_EQ(generated, committed)
      << "docs/case-reference.md is stale; regenerate it with\n"
         "  build/release/apps/surrox docs case-reference --log-level off -o /tmp/docs > docs/case-reference.md";
}

TEST(Cli, EveryCaseFileValidatesAndRuns) {
  int cases = 0;
  for (const auto& entry :
       fs::recursive_directory_iterator(surrox::testing::source_dir() / "cases")) {
    if (entry.path().extension() != ".yaml") continue;
    ++cases;
    const fs::path dir = surrox::testing::scratch_dir() / entry.path().stem();
    std::string out;
    EXPECT_EQ(run_surrox("validate -q " + entry.path().string() + " -o " + dir.string(), &out), 0)
        << out;
    // Shortened: the point is that it runs end to end, not the physics (tested elsewhere). A case
    // may say how in a header line "# Quick check: ARGS" (sweeps: fewer, smaller cases).
    std::string quick = "--max-steps 3";
    std::ifstream text(entry.path());
    for (std::string line; std::getline(text, line) && line.rfind('#', 0) == 0;)
      if (line.rfind("# Quick check:", 0) == 0) quick = line.substr(14);
    EXPECT_EQ(
        run_surrox("run " + entry.path().string() + " -o " + dir.string() + " " + quick, &out), 0)
        << entry.path() << "\n"
        << out;
    EXPECT_TRUE(fs::exists(dir / "summary.json")) << entry.path();
  }
  EXPECT_GT(cases, 0);
}

}  // namespace
}  // namespace surrox

namespace surrox {
namespace {

TEST(Cli, ARunStoppedHalfwayAndRestartedEqualsTheUninterruptedRunBitwise) {
  const fs::path dir = surrox::testing::scratch_dir();
  const std::string common =
      demo_case().string() + " --set solver.grid.points=[33,33] --set output.vtk=false";
  std::string out;
  ASSERT_EQ(run_surrox("run " + common + " -o " + (dir / "whole").string(), &out), 0) << out;
  ASSERT_EQ(
      run_surrox("run " + common + " -o " + (dir / "first").string() + " --max-steps 100", &out), 0)
      << out;
  EXPECT_FALSE(summary_of(dir / "first")["results"]["finished"].get<bool>());
  EXPECT_EQ(summary_of(dir / "first")["results"]["steps"], 100);
  ASSERT_EQ(run_surrox("run " + common + " -o " + (dir / "second").string() + " --restart " +
                           (dir / "first/checkpoint.h5").string(),
                       &out),
            0)
      << out;
  const auto whole = summary_of(dir / "whole")["results"];
  const auto resumed = summary_of(dir / "second")["results"];
  EXPECT_TRUE(resumed["finished"].get<bool>());
  EXPECT_EQ(resumed["steps"], whole["steps"]);
  // Bitwise: the same JSON numbers (17 significant digits) and the same final field.
  EXPECT_EQ(resumed["diagnostics"], whole["diagnostics"]);
  EXPECT_EQ(resumed["fields"], whole["fields"]);
  io::Hdf5DatasetReader a(dir / "whole/fields.h5"), b(dir / "second/fields.h5");
  const auto ua = a.read("u", a.steps() - 1), ub = b.read("u", b.steps() - 1);
  ASSERT_EQ(ua.size(), ub.size());
  EXPECT_EQ(std::memcmp(ua.data(), ub.data(), ua.size() * sizeof(double)), 0);
  // A checkpoint of another case is refused with exit code 2.
  EXPECT_EQ(run_surrox("run " + demo_case().string() + " --set solver.grid.points=[17,17] -o " +
                           (dir / "other").string() + " --restart " +
                           (dir / "first/checkpoint.h5").string(),
                       &out),
            2);
  expect_contains(out, "checkpoint holds 1089 points, this case has 289");
}

}  // namespace
}  // namespace surrox
