// ctest-labels: unit
// ctest-libraries: surrox_training surrox_io surrox_io_vtk
// ctest-pch: torch
// OpenFOAM case folders in a collection, on a hand-written two-cell case (no OpenFOAM needed):
// the folder as `files`, cell rows with their centres, distance to a patch and field values,
// a manifest's `time` column (read time and parameter at once), the cache and its rebuild when
// a new time directory appears, and bad input naming the file and the valid choices.
#include <gtest/gtest.h>

#include <fstream>

#include "core/error.hpp"
#include "io/case_file.hpp"
#include "support/openfoam_cases.hpp"
#include "support/test_paths.hpp"
#include "training/field/collection_dataset.hpp"

namespace surrox::training {
namespace {

namespace fs = std::filesystem;

FieldDataset openfoam_load(const fs::path& folder, std::vector<std::string> overrides) {
  Schema root("test");
  root.section("data", CollectionDataset::schema(), "data");
  const io::CaseFile c = io::load_case_text(
      "data: {files: two, rows: cells, inputs: [coord_x, 'distance_to:boundary/left'], "
      "outputs: [p], dtype: float64, split: [1, 0, 0]}\n",
      "train.yaml", root, overrides, folder);
  return CollectionDataset::load(c.root.section("data"), surrogates::GridSamples::kRowPerCell);
}

// Rows in physical units, [rows, inputs + outputs].
torch::Tensor openfoam_rows(const FieldDataset& d) {
  return torch::cat({d.inputs.invert(d.train.inputs), d.outputs.invert(d.train.targets)}, 1);
}

void openfoam_expect_rows(const torch::Tensor& rows, const std::vector<std::vector<double>>& want) {
  ASSERT_EQ(rows.size(0), static_cast<long>(want.size()));
  for (long r = 0; r < rows.size(0); ++r)
    for (long c = 0; c < rows.size(1); ++c)
      EXPECT_NEAR(rows[r][c].item<double>(), want[r][c], 1e-6) << "row " << r << " column " << c;
}

TEST(CollectionOpenFoam, ACaseFolderGivesCellRowsOfItsLatestTime) {
  const auto dir = surrox::testing::scratch_dir();
  surrox::testing::write_two_cell_case(dir / "two");
  const FieldDataset d = openfoam_load(dir, {});
  EXPECT_EQ(d.train_cases, std::vector<std::string>{"two"});
  EXPECT_EQ(d.inputs.names, (std::vector<std::string>{"coord_x", "distance_to:boundary/left"}));
  // Cell centres x = 0.5, 1.5; distances to the patch x = 0 the same; p at time 0.5.
  openfoam_expect_rows(openfoam_rows(d), {{0.5, 0.5, 1.5}, {1.5, 1.5, 2.5}});
  // Another time by the section's `time`; vector components as for VTK files.
  openfoam_expect_rows(openfoam_rows(openfoam_load(dir, {"data.time=0"})),
                       {{0.5, 0.5, 0.0}, {1.5, 1.5, 0.0}});
  const FieldDataset u = openfoam_load(dir, {"data.outputs=[U]", "data.inputs=[coord_y]"});
  EXPECT_EQ(u.outputs.names, (std::vector<std::string>{"U[0]", "U[1]", "U[2]"}));
  openfoam_expect_rows(openfoam_rows(u), {{0.5, 1, 2, 3}, {0.5, 4, 5, 6}});
  // Point rows: a row per mesh point.
  const FieldDataset points = openfoam_load(dir, {"data.rows=points", "data.inputs=[coord_x]"});
  EXPECT_EQ(points.train.rows(), 12);
}

TEST(CollectionOpenFoam, AManifestTimeColumnPicksTheTimeAndIsAParameter) {
  const auto dir = surrox::testing::scratch_dir();
  surrox::testing::write_two_cell_case(dir / "two");
  { std::ofstream(dir / "manifest.csv") << "file,name,time\ntwo,start,0\ntwo/,end,0.5\n"; }
  const FieldDataset d =
      openfoam_load(dir, {"data.files=manifest.csv", "data.inputs=[coord_x]",
                          "data.parameters=[time]", "data.split=[0.5, 0.5, 0]", "data.seed=3"});
  ASSERT_EQ(d.train_cases.size(), 1u);
  const bool start_trains = d.train_cases[0] == "start";
  const double time = start_trains ? 0.0 : 0.5;
  const double p0 = start_trains ? 0.0 : 1.5, p1 = start_trains ? 0.0 : 2.5;
  openfoam_expect_rows(openfoam_rows(d), {{0.5, time, p0}, {1.5, time, p1}});
}

TEST(CollectionOpenFoam, TheCacheIsRebuiltWhenANewTimeIsWritten) {
  const auto dir = surrox::testing::scratch_dir();
  surrox::testing::write_two_cell_case(dir / "two");
  const auto cache = dir / "two" / "collection.cache.h5";  // inside the case folder
  openfoam_load(dir, {});
  ASSERT_TRUE(fs::exists(cache));
  const auto written = fs::last_write_time(cache);
  openfoam_load(dir, {});
  EXPECT_EQ(fs::last_write_time(cache), written);  // the cache is not part of its fingerprint
  surrox::testing::write_two_cell_fields(dir / "two" / "1", "nonuniform List<scalar> 2(7 8)",
                                         "uniform (0 0 0)");
  openfoam_expect_rows(openfoam_rows(openfoam_load(dir, {})), {{0.5, 0.5, 7}, {1.5, 1.5, 8}});
}

void openfoam_expect_error(const fs::path& dir, std::vector<std::string> overrides,
                           const std::vector<std::string>& parts) {
  try {
    openfoam_load(dir, overrides);
    ADD_FAILURE() << "no InputError, expected: " << parts.front();
  } catch (const InputError& e) {
    for (const auto& part : parts)
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(CollectionOpenFoam, BadInputNamesTheFileAndTheChoices) {
  const auto dir = surrox::testing::scratch_dir();
  surrox::testing::write_two_cell_case(dir / "two");
  const std::string two = (dir / "two").string();
  // An unknown patch: the blocks there are.
  openfoam_expect_error(
      dir, {"data.inputs=['distance_to:boundary/inlet']"},
      {two, "has no block 'boundary/inlet'",
       "its blocks: internalMesh, boundary/left, boundary/right, boundary/sides"});
  // A missing time, from the section or from a manifest line.
  openfoam_expect_error(dir, {"data.time=0.25"},
                        {two, "no time directory for time 0.25", "its times: 0, 0.5"});
  { std::ofstream(dir / "times.csv") << "file,time\ntwo,0.7\n"; }
  openfoam_expect_error(dir, {"data.files=times.csv"},
                        {"times.csv:2", "no time directory for time 0.7", "its times: 0, 0.5"});
  // A folder that is not a case: in a manifest, and as `files`.
  fs::create_directories(dir / "plain");
  { std::ofstream(dir / "plain.csv") << "file\nplain\n"; }
  openfoam_expect_error(dir, {"data.files=plain.csv"},
                        {"plain.csv:2", "not an OpenFOAM case folder", "system/controlDict"});
  openfoam_expect_error(dir, {"data.files=plain"},
                        {"plain", "nor system/controlDict (an OpenFOAM case folder)"});
  // An array the case does not have: its cell arrays.
  openfoam_expect_error(dir, {"data.outputs=[T]"}, {two, "no cell array 'T'", "cell arrays: U, p"});
}

}  // namespace
}  // namespace surrox::training
