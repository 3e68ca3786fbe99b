// ctest-labels: unit
// ctest-libraries: surrox_training surrox_io surrox_io_vtk
// ctest-pch: torch
// Training data from a collection of VTK files with a different mesh per case: channels
// (arrays, components, derived coordinates and cell sizes, manifest parameters), split by case
// and by group, statistics from the training cases only, the HDF5 cache and its invalidation
// when a file changes, and bad input naming the file and what it has.
#include "training/field/collection_dataset.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>
#include <thread>

#include "core/error.hpp"
#include "io/case_file.hpp"
#include "support/test_paths.hpp"
#include "training/synthetic_collection.hpp"

namespace surrox::training {
namespace {

using testing::make_collection;

FieldDataset load_collection(
    const std::filesystem::path& folder, std::vector<std::string> overrides,
    surrogates::GridSamples samples = surrogates::GridSamples::kRowPerCell) {
  Schema root("test");
  root.section("data", CollectionDataset::schema(), "data");
  const io::CaseFile c =
      io::load_case_text("data: {files: manifest.csv, outputs: [u], dtype: float64}\n",
                         "train.yaml", root, overrides, folder);
  return CollectionDataset::load(c.root.section("data"), samples);
}

std::set<std::string> all_cases(const FieldDataset& d) {
  std::set<std::string> all(d.train_cases.begin(), d.train_cases.end());
  all.insert(d.validation_cases.begin(), d.validation_cases.end());
  all.insert(d.test_cases.begin(), d.test_cases.end());
  return all;
}

TEST(CollectionDataset, RowsPerPointOfEachCaseMeshAndTrainingStatistics) {
  const auto dir = surrox::testing::scratch_dir();
  const auto collection = make_collection(dir, 10);
  const FieldDataset d =
      load_collection(dir, {"data.inputs=[coord_x, coord_y, velocity]", "data.parameters=[Re]",
                            "data.split=[0.6, 0.2, 0.2]"});
  EXPECT_EQ(d.train_cases.size(), 6u);
  EXPECT_EQ(d.validation_cases.size(), 2u);
  EXPECT_EQ(d.test_cases.size(), 2u);
  EXPECT_EQ(all_cases(d).size(), 10u);  // no case in two splits
  EXPECT_EQ(d.inputs.names, (std::vector<std::string>{"coord_x", "coord_y", "velocity[0]",
                                                      "velocity[1]", "velocity[2]", "Re"}));
  EXPECT_EQ(d.outputs.names, std::vector<std::string>{"u"});
  // Rows: every point of every training case, each case with its own mesh.
  long rows = 0;
  double sum_u = 0;
  for (const auto& name : d.train_cases) {
    const int k = std::stoi(name.substr(5));
    const long n = collection.points_per_side[k];
    rows += n * n;
    for (long j = 0; j < n; ++j)
      for (long i = 0; i < n; ++i) {
        const double x = double(i) / (n - 1), y = double(j) / (n - 1);
        sum_u += collection.re[k] * x + y * y;
      }
  }
  ASSERT_EQ(d.train.inputs.sizes(), (std::vector<long>{rows, 6}));
  EXPECT_NEAR(d.outputs.mean[0], sum_u / rows, 1e-12);  // statistics of the training cases only
  const auto mean = d.train.inputs.mean(0), std = d.train.inputs.std(0, false);
  for (long c = 0; c < 6; ++c) {
    EXPECT_NEAR(mean[c].item<double>(), 0, 1e-12) << c;
    EXPECT_NEAR(std[c].item<double>(), 1, 1e-12) << c;
  }
  // The physical values come back: u = Re·x + y² holds row by row on the test cases.
  const auto x = d.inputs.invert(d.test.inputs), u = d.outputs.invert(d.test.targets);
  for (long r = 0; r < x.size(0); r += 7)
    EXPECT_NEAR(
        u[r][0].item<double>(),
        x[r][5].item<double>() * x[r][0].item<double>() + std::pow(x[r][1].item<double>(), 2),
        1e-12);
  // The model's metadata gets the channel description.
  EXPECT_EQ(d.source["type"], "collection");
  EXPECT_EQ(d.source["parameters"], nlohmann::json::array({"Re"}));
  EXPECT_EQ(d.input_domains.at(0).kind(), "points");
}

TEST(CollectionDataset, CellRowsWeightedByCellArea) {
  const auto dir = surrox::testing::scratch_dir();
  make_collection(dir, 4);
  const FieldDataset d =
      load_collection(dir, {"data.rows=cells", "data.inputs=[coord_x, cell_size]",
                            "data.outputs=[p]", "data.weight=cell_size", "data.split=[1, 0, 0]"});
  // Each case's triangles tile the unit square: the cell sizes of a case sum to 1.
  const auto raw = d.inputs.invert(d.train.inputs);
  EXPECT_NEAR(raw.select(1, 1).sum().item<double>(), 4.0, 1e-12);
  EXPECT_NEAR(d.train.weights.mean().item<double>(), 1.0, 1e-12);
}

TEST(CollectionDataset, GroupsStayInOneSplit) {
  const auto dir = surrox::testing::scratch_dir();
  make_collection(dir, 9);
  for (int seed = 1; seed <= 3; ++seed) {
    const FieldDataset d =
        load_collection(dir, {"data.group_by=[shape]", "data.split=[0.34, 0.33, 0.33]",
                              "data.seed=" + std::to_string(seed)});
    auto shapes = [](const std::vector<std::string>& names) {
      std::set<int> s;
      for (const auto& n : names) s.insert(std::stoi(n.substr(5)) % 3);
      return s;
    };
    EXPECT_EQ(shapes(d.train_cases).size(), 1u);
    EXPECT_EQ(shapes(d.validation_cases).size(), 1u);
    EXPECT_EQ(shapes(d.test_cases).size(), 1u);
    EXPECT_EQ(all_cases(d).size(), 9u);
  }
}

TEST(CollectionDataset, CacheIsReusedAndRebuiltWhenAFileChanges) {
  const auto dir = surrox::testing::scratch_dir();
  make_collection(dir, 4);
  const auto cache = dir / "manifest.cache.h5";
  const FieldDataset first = load_collection(dir, {"data.split=[1, 0, 0]"});
  ASSERT_TRUE(std::filesystem::exists(cache));
  const auto written = std::filesystem::last_write_time(cache);
  // Reused: a second load does not rewrite it and gives the same rows.
  const FieldDataset second = load_collection(dir, {"data.split=[1, 0, 0]"});
  EXPECT_EQ(std::filesystem::last_write_time(cache), written);
  EXPECT_TRUE(torch::equal(first.train.targets, second.train.targets));
  // A case file rewritten with other values: the cache is rebuilt and the new values are used.
  io::write_vtk(testing::square_mesh(5, 100.0), dir / "case_0.vtu");
  std::filesystem::last_write_time(dir / "case_0.vtu", written + std::chrono::seconds(5));
  const FieldDataset third = load_collection(dir, {"data.split=[1, 0, 0]"});
  EXPECT_NE(std::filesystem::last_write_time(cache), written);
  EXPECT_GT(third.outputs.mean[0], first.outputs.mean[0] + 1.0);
  // Another data section (other inputs): rebuilt too, with the new channel.
  const FieldDataset fourth =
      load_collection(dir, {"data.split=[1, 0, 0]", "data.inputs=[coord_y]"});
  EXPECT_EQ(fourth.inputs.names, std::vector<std::string>{"coord_y"});
  // A damaged cache is rebuilt, not an error.
  { std::ofstream(cache, std::ios::trunc) << "not hdf5"; }
  EXPECT_NO_THROW(load_collection(dir, {"data.split=[1, 0, 0]"}));
}

TEST(CollectionDataset, GridNetworksGetEachCaseAsOneGrid) {
  const auto dir = surrox::testing::scratch_dir();
  {
    std::ofstream manifest(dir / "manifest.csv");
    manifest << "file,Re\n";
    for (int k = 0; k < 5; ++k) {
      testing::write_grid_case(dir / ("grid_" + std::to_string(k) + ".vts"), 6, 4, 1.0 + k);
      manifest << "grid_" << k << ".vts," << 1.0 + k << "\n";
    }
  }
  const FieldDataset d = load_collection(
      dir, {"data.inputs=[coord_x, coord_y]", "data.parameters=[Re]", "data.split=[0.6, 0.2, 0.2]"},
      surrogates::GridSamples::kWholeGrid);
  // [cases, channels, nj, ni], each case one grid, statistics per channel.
  ASSERT_EQ(d.train.inputs.sizes(), (std::vector<long>{3, 3, 4, 6}));
  ASSERT_EQ(d.train.targets.sizes(), (std::vector<long>{3, 1, 4, 6}));
  ASSERT_EQ(d.test.inputs.sizes(), (std::vector<long>{1, 3, 4, 6}));
  EXPECT_EQ(d.input_domains.at(0).kind(), "structured_grid");
  const auto x = d.inputs.invert(d.train.inputs).permute({0, 2, 3, 1});
  const auto u = d.outputs.invert(d.train.targets).permute({0, 2, 3, 1});
  for (long c = 0; c < 3; ++c) {
    const double re = x[c][0][0][2].item<double>();
    for (long j = 0; j < 4; ++j)
      for (long i = 0; i < 6; ++i) {
        EXPECT_NEAR(x[c][j][i][0].item<double>(), double(i) / 5 + 0.1 * j, 1e-12);
        EXPECT_NEAR(x[c][j][i][1].item<double>(), double(j) / 3, 1e-12);
        EXPECT_NEAR(u[c][j][i][0].item<double>(),
                    re * (double(i) / 5 + 0.1 * j) + std::pow(double(j) / 3, 2), 1e-12);
      }
  }
  // From the cache too: the same tensors.
  const FieldDataset again = load_collection(
      dir, {"data.inputs=[coord_x, coord_y]", "data.parameters=[Re]", "data.split=[0.6, 0.2, 0.2]"},
      surrogates::GridSamples::kWholeGrid);
  EXPECT_TRUE(torch::equal(d.train.inputs, again.train.inputs));
  // Every case must be on the same grid.
  testing::write_grid_case(dir / "grid_4.vts", 7, 4, 5.0);
  try {
    load_collection(dir, {"data.parameters=[Re]"}, surrogates::GridSamples::kWholeGrid);
    ADD_FAILURE() << "no InputError for grids of different sizes";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("one grid shared by every case"), std::string::npos)
        << e.what();
  }
}

TEST(CollectionDataset, GridNetworksRefuseUnstructuredCases) {
  const auto dir = surrox::testing::scratch_dir();
  make_collection(dir, 3);
  try {
    load_collection(dir, {}, surrogates::GridSamples::kWholeGrid);
    ADD_FAILURE() << "no InputError for a grid network on triangle meshes";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is unstructured"), std::string::npos) << e.what();
  }
}

void expect_input_error(const std::filesystem::path& dir, std::vector<std::string> overrides,
                        const std::string& part) {
  try {
    load_collection(dir, overrides);
    ADD_FAILURE() << "no InputError, expected: " << part;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(CollectionDataset, BadInputNamesTheFileAndWhatItHas) {
  const auto dir = surrox::testing::scratch_dir();
  make_collection(dir, 3);
  expect_input_error(dir, {"data.outputs=[pressure]"}, "no point array 'pressure'");
  expect_input_error(dir, {"data.outputs=[pressure]"}, "point arrays: u, velocity");
  expect_input_error(dir, {"data.outputs=[p]"}, "it is a cell array: set `rows: cells`");
  expect_input_error(dir, {"data.outputs=['velocity[3]']"}, "component 3 does not exist");
  expect_input_error(dir, {"data.parameters=[Ma]"}, "has no parameter 'Ma'");
  expect_input_error(dir, {"data.parameters=[shape]"}, "is not a number");
  expect_input_error(dir, {"data.weight=cell_size"}, "set `rows: cells`");
  expect_input_error(dir, {"data.inputs=[distance_to:wall]"}, "has no block 'wall'");
  expect_input_error(dir, {"data.files=none/*.vtu"}, "matches no file");
  expect_input_error(dir, {"data.group_by=[material]"}, "no manifest column 'material'");
  { std::ofstream(dir / "bad.csv") << "file,Re\ncase_0.vtu,1\nmissing.vtu,2\n"; }
  expect_input_error(dir, {"data.files=bad.csv"}, "bad.csv:3: no such file");
  { std::ofstream(dir / "short.csv") << "file,Re\ncase_0.vtu\n"; }
  expect_input_error(dir, {"data.files=short.csv"}, "short.csv:2: 1 values where the header has 2");
  // A glob works too: case names are the file stems.
  const FieldDataset d = load_collection(dir, {"data.files=case_*.vtu", "data.split=[1, 0, 0]"});
  EXPECT_EQ(d.train_cases.size(), 3u);
}

}  // namespace
}  // namespace surrox::training
