// ctest-labels: regression
// ctest-libraries: surrox_cli
// ctest-pch: torch
// A grid network (unet) trained by `surrox train` on a collection of .vts files that share one
// curvilinear grid (written by VTK's writer, u = Re·x + y² per point), then `surrox evaluate`
// on a held-out file at an Re the training never saw: the grid layout from the files to the
// model and back. A per-point network takes meshes that differ; a grid network refuses them.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "support/test_paths.hpp"
#include "training/synthetic_collection.hpp"

namespace surrox {
namespace {

nlohmann::json grid_results_of(const std::filesystem::path& dir) {
  std::ifstream in(dir / "summary.json");
  return nlohmann::json::parse(in)["results"];
}

TEST(CollectionGridTraining, UNetTrainsOnSharedGridFilesAndEvaluatesAHeldOutFile) {
  const auto dir = surrox::testing::scratch_dir();
  {
    std::ofstream manifest(dir / "manifest.csv");
    manifest << "file,Re\n";
    for (int k = 0; k < 12; ++k) {
      const double re = 1.0 + 0.2 * k;
      training::testing::write_grid_case(dir / ("grid_" + std::to_string(k) + ".vts"), 16, 8, re);
      manifest << "grid_" << k << ".vts," << re << "\n";
    }
    training::testing::write_grid_case(dir / "heldout.vts", 16, 8, 2.1);
    std::ofstream(dir / "heldout.csv") << "file,Re\nheldout.vts,2.1\n";
  }
  std::ofstream(dir / "train.yml") << R"(family: field
runtime: {threads: 1, log_level: warn}
data: {type: collection, files: manifest.csv, inputs: [coord_x, coord_y], parameters: [Re],
       outputs: [u], split: [0.75, 0.25, 0.0], seed: 1}
network: {type: unet, base_channels: 8, depth: 1}
training: {epochs: 150, batch_size: 3, seed: 1, optimizer: {type: adam, lr: 3.0e-3},
           schedule: {type: cosine}, loss: {type: mse}}
)";
  std::string out;
  ASSERT_EQ(surrox::testing::run_surrox(
                "train " + (dir / "train.yml").string() + " -o " + (dir / "train").string(), &out),
            0)
      << out;
  const auto r = grid_results_of(dir / "train");
  EXPECT_EQ(r["samples"], "whole_grid");
  EXPECT_EQ(r["cases"]["train"], 9);
  EXPECT_EQ(r["cases"]["validation"], 3);

  ASSERT_EQ(surrox::testing::run_surrox("evaluate " + (dir / "train" / "model.pt").string() + " " +
                                            (dir / "heldout.csv").string() + " -o " +
                                            (dir / "evaluate").string(),
                                        &out),
            0)
      << out;
  const auto e = grid_results_of(dir / "evaluate");
  EXPECT_EQ(e["cases"], 1);
  EXPECT_LT(e["relative_l2"]["u"].get<double>(), 0.05) << e.dump();

  // A held-out file on another grid: exit 2 naming both grids.
  training::testing::write_grid_case(dir / "other.vts", 18, 8, 2.1);
  std::ofstream(dir / "other.csv") << "file,Re\nother.vts,2.1\n";
  EXPECT_EQ(surrox::testing::run_surrox("evaluate " + (dir / "train" / "model.pt").string() + " " +
                                            (dir / "other.csv").string() + " -o " +
                                            (dir / "other").string(),
                                        &out),
            2);
  EXPECT_NE(out.find("grid"), std::string::npos) << out;
}

}  // namespace
}  // namespace surrox
