// ctest-labels: regression
// ctest-libraries: surrox_training surrox_io surrox_io_vtk
// ctest-pch: torch
// ctest-timeout: 600
// An OpenFOAM case folder read directly (vtkOpenFOAMReader) against foamToVTK's export of the
// same case: Debian's OpenFOAM v1912 makes a 10 × 10 lid-driven cavity (blockMesh, three icoFoam
// steps) at test time, graded and written in binary, and uniform in ASCII, and foamToVTK exports
// every time. Cell rows (centres, distance to the
// lid patch, cell sizes, p and U) and patch rows must equal the export's to single-precision
// round-off (both hold float32 values); point coordinates too, point values are each tool's own
// cell-to-point interpolation and are compared where both take them from the same boundary
// faces. Then a field model trained on the case folder at two times is evaluated on the case
// folder and on the export, with the same errors. OpenFOAM missing is a failure, not a skip: CI
// installs it through scripts/bootstrap.sh.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "io/vtk_reader.hpp"
#include "support/openfoam_cases.hpp"
#include "support/test_paths.hpp"
#include "training/field/collection_channels.hpp"

namespace surrox::training {
namespace {

namespace fs = std::filesystem;

// A cavity solved and exported in a folder of its own (beside the tests' scratch folders,
// which each test's scratch_dir() empties), named `cavity` so that foamToVTK writes cavity_N.vtm.
fs::path make_cavity(const std::string& name, double grading, const std::string& format) {
  const fs::path d =
      surrox::testing::scratch_dir().parent_path() / ("OpenFoamParity." + name) / "cavity";
  fs::remove_all(d);
  surrox::testing::write_cavity_case(d, 10, 3, grading, format);
  std::string log;
  const int rc = surrox::testing::run_openfoam(
      d,
      "blockMesh > log.blockMesh 2>&1 && icoFoam > log.icoFoam 2>&1 && foamToVTK > "
      "log.foamToVTK 2>&1",
      &log);
  if (rc != 0) {
    std::string logs;
    for (const char* file : {"log.blockMesh", "log.icoFoam", "log.foamToVTK"}) {
      std::ifstream in(d / file);
      logs += std::string(file) + ":\n" + std::string(std::istreambuf_iterator<char>(in), {});
    }
    ADD_FAILURE() << "OpenFOAM failed (exit " << rc << "): " << log << logs;
  }
  return d;
}

// The graded cavity (cells 3 times larger at one end than at the other), its mesh and fields
// written in OpenFOAM's binary format (double precision), once per process.
const fs::path& cavity_folder() {
  static const fs::path dir = make_cavity("graded", 3.0, "binary");
  return dir;
}

// OpenFOAM missing is a failure with the reason, not a skip (CI installs it).
::testing::AssertionResult openfoam_cavity_ready() {
  std::string why;
  if (!surrox::testing::openfoam_available(&why)) return ::testing::AssertionFailure() << why;
  if (!fs::exists(cavity_folder() / "VTK" / "cavity_3.vtm"))
    return ::testing::AssertionFailure() << "no foamToVTK output in " << cavity_folder();
  return ::testing::AssertionSuccess();
}

CollectionRows parity_rows(const io::MeshCollection& file, const fs::path& path, bool cells,
                           const std::string& block, std::vector<std::string> inputs,
                           std::vector<std::string> outputs) {
  CollectionChannelSpec spec;
  spec.on_cells = cells;
  spec.block = block;
  spec.inputs = std::move(inputs);
  spec.outputs = std::move(outputs);
  CollectionCase c;
  c.name = path.filename().string();
  c.file = path;
  c.where = path.string();
  return collection_rows(file, c, spec);
}

// Largest |a - b| / max(1e-3, |b|) over the columns; names and shapes must agree.
double parity_relative_difference(const io::HostArray& a, const io::HostArray& b) {
  EXPECT_EQ(a.extent(0), b.extent(0));
  EXPECT_EQ(a.extent(1), b.extent(1));
  double worst = 0;
  for (std::size_t r = 0; r < std::min(a.extent(0), b.extent(0)); ++r)
    for (std::size_t c = 0; c < std::min(a.extent(1), b.extent(1)); ++c)
      worst = std::max(worst, std::abs(a(r, c) - b(r, c)) / std::max(1e-3, std::abs(b(r, c))));
  return worst;
}

// float32 round-off of values a few orders below 1 (the smallest compared are 1e-3 of scale).
constexpr double kSinglePrecision = 1e-6;

TEST(OpenFoamParity, CellRowsEqualFoamToVtkAtTheLatestAndANamedTime) {
  ASSERT_TRUE(openfoam_cavity_ready());
  const std::vector<std::string> inputs{"coord_x",
                                        "coord_y",
                                        "coord_z",
                                        "distance_to:boundary/movingWall",
                                        "distance_to:boundary/fixedWalls",
                                        "cell_size"};
  for (const auto& [time, vtm] :
       {std::pair<std::string, std::string>{"latest", "cavity_3.vtm"}, {"0.01", "cavity_2.vtm"}}) {
    CollectionCase k{"cavity", cavity_folder(), {}, cavity_folder().string(), time};
    const auto direct = read_collection_case(k, "latest");
    const auto exported = io::read_vtk(cavity_folder() / "VTK" / vtm);
    const CollectionRows a = parity_rows(direct, cavity_folder(), true, "", inputs, {"p", "U"});
    const CollectionRows b =
        parity_rows(exported, cavity_folder() / "VTK" / vtm, true, "", inputs, {"p", "U"});
    ASSERT_EQ(a.inputs.extent(0), 100u);
    EXPECT_EQ(a.input_names, b.input_names);
    EXPECT_EQ(a.output_names, b.output_names);
    const double in = parity_relative_difference(a.inputs, b.inputs);
    const double out = parity_relative_difference(a.targets, b.targets);
    std::cout << fmt::format("time {}: cell rows differ by {:.2e} (inputs), {:.2e} (p, U)\n", time,
                             in, out);
    EXPECT_LE(in, kSinglePrecision) << time;
    EXPECT_LE(out, kSinglePrecision) << time;
    // The lid is at y = 0.1: the distance to it is 0.1 - y of the centre.
    for (std::size_t r = 0; r < a.inputs.extent(0); ++r)
      EXPECT_NEAR(a.inputs(r, 3), 0.1 - a.inputs(r, 1), 1e-7) << r;
  }
}

TEST(OpenFoamParity, PatchRowsEqualFoamToVtk) {
  ASSERT_TRUE(openfoam_cavity_ready());
  CollectionCase k{"cavity", cavity_folder(), {}, cavity_folder().string(), ""};
  const auto direct = read_collection_case(k, "latest");
  const auto exported = io::read_vtk(cavity_folder() / "VTK" / "cavity_3.vtm");
  for (const char* patch : {"boundary/movingWall", "boundary/fixedWalls"}) {
    const CollectionRows a =
        parity_rows(direct, cavity_folder(), true, patch, {"coord_x", "coord_y"}, {"p", "U"});
    const CollectionRows b =
        parity_rows(exported, cavity_folder(), true, patch, {"coord_x", "coord_y"}, {"p", "U"});
    EXPECT_LE(parity_relative_difference(a.inputs, b.inputs), kSinglePrecision) << patch;
    EXPECT_LE(parity_relative_difference(a.targets, b.targets), kSinglePrecision) << patch;
  }
}

// Point rows of a case folder (vtkOpenFOAMReader's cell-to-point filter) against its export
// (OpenFOAM's volPointInterpolation): the largest differences, relative to each channel's
// largest |value|, and how many lid points (fixed U = (1, 0, 0)) both give U_x = 1 on.
struct PointParity {
  double coordinates = 0, p = 0, u = 0;
  long lid_points = 0, lid_points_equal = 0;
};

PointParity point_parity(const fs::path& folder) {
  CollectionCase k{"cavity", folder, {}, folder.string(), ""};
  const auto vtm = folder / "VTK" / "cavity_3.vtm";
  const std::vector<std::string> xyz{"coord_x", "coord_y", "coord_z"};
  const CollectionRows a =
      parity_rows(read_collection_case(k, "latest"), folder, false, "", xyz, {"p", "U[0]", "U[1]"});
  const CollectionRows b =
      parity_rows(io::read_vtk(vtm), vtm, false, "", xyz, {"p", "U[0]", "U[1]"});
  EXPECT_EQ(a.inputs.extent(0), 242u);  // 11 × 11 × 2 points, in OpenFOAM's order in both
  PointParity d;
  d.coordinates = parity_relative_difference(a.inputs, b.inputs);
  double p_scale = 0, u_scale = 0, p_diff = 0, u_diff = 0;
  for (std::size_t r = 0; r < std::min(a.inputs.extent(0), b.inputs.extent(0)); ++r) {
    p_scale = std::max(p_scale, std::abs(b.targets(r, 0)));
    p_diff = std::max(p_diff, std::abs(a.targets(r, 0) - b.targets(r, 0)));
    for (int c = 1; c <= 2; ++c) {
      u_scale = std::max(u_scale, std::abs(b.targets(r, c)));
      u_diff = std::max(u_diff, std::abs(a.targets(r, c) - b.targets(r, c)));
    }
    // Lid points between its two ends (there the lid meets the fixed walls).
    const double x = a.inputs(r, 0);
    if (std::abs(a.inputs(r, 1) - 0.1) < 1e-7 && x > 1e-7 && x < 0.1 - 1e-7) {
      ++d.lid_points;
      if (std::abs(a.targets(r, 1) - 1) < 1e-6 && std::abs(b.targets(r, 1) - 1) < 1e-6)
        ++d.lid_points_equal;
    }
  }
  d.p = p_diff / p_scale;
  d.u = u_diff / u_scale;
  std::cout << fmt::format(
      "{}: point rows differ by {:.2e} (coordinates), {:.2e} (p), {:.2e} (U) relative to the "
      "largest value; U = (1, 0, 0) at {} of {} lid points in both\n",
      folder.parent_path().filename().string(), d.coordinates, d.p, d.u, d.lid_points_equal,
      d.lid_points);
  return d;
}

TEST(OpenFoamParity, PointRowsEqualFoamToVtkOnAUniformMesh) {
  ASSERT_TRUE(openfoam_cavity_ready());
  // On equal cells every weighting of the surrounding cells is the plain average.
  const PointParity d = point_parity(make_cavity("uniform", 1.0, "ascii"));
  EXPECT_LE(d.coordinates, kSinglePrecision);
  EXPECT_LE(d.p, kSinglePrecision);
  EXPECT_LE(d.u, kSinglePrecision);
}

TEST(OpenFoamParity, PointRowsOfAGradedMeshShareCoordinatesAndTheLid) {
  ASSERT_TRUE(openfoam_cavity_ready());
  // The weights differ on unequal cells: the values inside are each tool's own (the
  // difference is printed and reported in docs/validation/collection_datasets.md).
  const PointParity d = point_parity(cavity_folder());
  EXPECT_LE(d.coordinates, kSinglePrecision);
  EXPECT_EQ(d.lid_points, 18);  // 9 interior lid points on each of the two planes
  EXPECT_EQ(d.lid_points_equal, d.lid_points);
}

nlohmann::json parity_results(const fs::path& dir) {
  std::ifstream in(dir / "summary.json");
  return nlohmann::json::parse(in)["results"];
}

TEST(OpenFoamParity, EvaluateTakesTheCaseFolderAsItTakesTheExport) {
  ASSERT_TRUE(openfoam_cavity_ready());
  const auto dir = surrox::testing::scratch_dir();
  // Two times of the case as two training cases, through a manifest's `time` column.
  {
    std::ofstream(dir / "manifest.csv") << fmt::format(
        "file,name,time\n{0},early,0.01\n{0},late,0.015\n", cavity_folder().string());
    std::ofstream(dir / "train.yml")
        << "family: field\nruntime: {threads: 1, log_level: warn}\n"
           "data: {type: collection, files: manifest.csv, rows: cells, inputs: [coord_x, coord_y, "
           "'distance_to:boundary/movingWall'], outputs: [p, 'U[0]'], split: [0.5, 0.5, 0.0], "
           "dtype: float64}\nnetwork: {type: mlp, hidden: [8], activation: tanh}\n"
           "training: {epochs: 3, batch_size: 50, seed: 1, optimizer: {type: adam, lr: 1.0e-3}, "
           "loss: {type: mse}}\n";
  }
  std::string out;
  ASSERT_EQ(
      surrox::testing::run_surrox(
          fmt::format("train {} -o {}", (dir / "train.yml").string(), (dir / "t").string()), &out),
      0)
      << out;
  const std::string model = (dir / "t" / "model.pt").string();
  // The case folder (its latest time) and foamToVTK's export of that time: the same errors.
  const auto vtm = cavity_folder() / "VTK" / "cavity_3.vtm";
  for (const auto& [data, name] : {std::pair{cavity_folder(), "folder"}, {vtm, "export"}})
    ASSERT_EQ(
        surrox::testing::run_surrox(
            fmt::format("evaluate {} {} -o {}", model, data.string(), (dir / name).string()), &out),
        0)
        << out;
  const auto folder = parity_results(dir / "folder"), exported = parity_results(dir / "export");
  EXPECT_EQ(folder["cases"], 1);
  for (const char* channel : {"p", "U[0]"}) {
    const double a = folder["relative_l2"][channel].get<double>();
    const double b = exported["relative_l2"][channel].get<double>();
    EXPECT_GT(a, 0) << channel;
    EXPECT_NEAR(a, b, 1e-5 * b) << channel;
  }
  // A folder that is neither: exit 2, the message lists what DATA may be.
  fs::create_directories(dir / "plain");
  EXPECT_EQ(surrox::testing::run_surrox(
                fmt::format("evaluate {} {}", model, (dir / "plain").string()), &out),
            2);
  EXPECT_NE(out.find("OpenFOAM case folder"), std::string::npos) << out;
  EXPECT_NE(out.find("nor system/controlDict"), std::string::npos) << out;
}

}  // namespace
}  // namespace surrox::training
