// ctest-labels: regression slow
// ctest-libraries: surrox_cli
// ctest-pch: torch
// ctest-timeout: 600
// End to end on files written by ParaView: cases/collection/make_collection.py runs under
// ParaView's Python (pvbatch) and writes 12 multiblock cases, each with its own unstructured
// mesh, and a held-out case; `surrox train cases/collection/train.yml` trains the field family
// on the collection (inputs x, y, distance to the wall block, Re; output u) and `surrox
// evaluate` applies the model to the held-out file. The analytic field is smooth, so a small
// MLP must reach a few per cent; the second training reads the HDF5 cache, not the files.
// Without ParaView the same script runs under plain VTK Python, saying so.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "support/test_paths.hpp"
#include "surrogates/surrogate.hpp"

namespace surrox {
namespace {

nlohmann::json results_of(const std::filesystem::path& dir) {
  std::ifstream in(dir / "summary.json");
  return nlohmann::json::parse(in)["results"];
}

TEST(CollectionTraining, TrainsOnParaViewFilesAndEvaluatesAHeldOutFile) {
  const auto dir = surrox::testing::scratch_dir();
  const auto data = dir / "data";
  std::string why, out;
  std::string python = surrox::testing::paraview_python(&why);
  if (python.empty()) {
    python = "python3";
    std::cerr << why << "; the collection is written with VTK's Python instead of ParaView's\n";
  }
  const auto script = surrox::testing::source_dir() / "cases/collection/make_collection.py";
  ASSERT_EQ(
      surrox::testing::run_command(python + " " + script.string() + " " + data.string(), &out), 0)
      << out;

  const auto config = surrox::testing::source_dir() / "cases/collection/train.yml";
  const std::string train = "train " + config.string() +
                            " --set data.files=" + (data / "manifest.csv").string() +
                            " --set training.epochs=80 --set runtime.log_level=warn -o ";
  ASSERT_EQ(surrox::testing::run_surrox(train + (dir / "train").string(), &out), 0) << out;
  const auto r = results_of(dir / "train");
  EXPECT_EQ(r["cases"]["train"], 9);
  EXPECT_EQ(r["cases"]["validation"], 3);
  EXPECT_EQ(r["samples"], "row_per_cell");
  EXPECT_LT(r["best_validation_loss"].get<double>(), 0.01) << r.dump();
  EXPECT_TRUE(std::filesystem::exists(data / "manifest.cache.h5"));

  // The model records which arrays and derived channels it needs.
  const auto model = surrogates::Surrogate::load(dir / "train" / "model.pt");
  EXPECT_EQ(model->metadata().inputs.names,
            (std::vector<std::string>{"coord_x", "coord_y", "distance_to:boundary/wall", "Re"}));
  const auto& recorded = model->metadata().training["data"];
  EXPECT_EQ(recorded["type"], "collection");
  EXPECT_EQ(recorded["block"], "internalMesh");

  // The held-out file: a mesh and an Re the training never saw.
  ASSERT_EQ(surrox::testing::run_surrox("evaluate " + (dir / "train" / "model.pt").string() + " " +
                                            (data / "heldout.csv").string() + " -o " +
                                            (dir / "evaluate").string(),
                                        &out),
            0)
      << out;
  const auto e = results_of(dir / "evaluate");
  EXPECT_EQ(e["cases"], 1);
  EXPECT_LT(e["relative_l2"]["u"].get<double>(), 0.05) << e.dump();
  EXPECT_EQ(e["by_case_group"]["unseen"]["cases"], 1) << e.dump();

  // A held-out file without its parameters: exit 2 saying a manifest is needed.
  EXPECT_EQ(surrox::testing::run_surrox("evaluate " + (dir / "train" / "model.pt").string() + " " +
                                            (data / "heldout.vtm").string(),
                                        &out),
            2);
  EXPECT_NE(out.find("give a manifest"), std::string::npos) << out;
  EXPECT_NE(out.find("surrox evaluate "), std::string::npos) << out;  // what the user typed
  EXPECT_EQ(out.find("--set data.files"), std::string::npos) << out;  // not what they did not

  // The data folder itself: its manifest's cases (the 12 and the held-out one). The meshes
  // differ, so the baselines take the neighbours' fields at their nearest points.
  ASSERT_EQ(surrox::testing::run_surrox("evaluate " + (dir / "train" / "model.pt").string() + " " +
                                            data.string() + " -o " + (dir / "folder").string(),
                                        &out),
            0)
      << out;
  const auto f = results_of(dir / "folder");
  EXPECT_GT(f["cases"].get<long>(), 1) << f.dump();
  EXPECT_EQ(f["baselines"]["combined_by"], "nearest point") << f.dump();
  EXPECT_EQ(f["baselines"]["parameters"], nlohmann::json::array({"Re"})) << f.dump();
  EXPECT_GT(f["baselines"]["idw3_median"]["u"].get<double>(), 0) << f.dump();

  // Trained again: the rows come from the cache (not rewritten; same result, bit for bit).
  const auto cached = std::filesystem::last_write_time(data / "manifest.cache.h5");
  ASSERT_EQ(surrox::testing::run_surrox(train + (dir / "again").string(), &out), 0) << out;
  EXPECT_EQ(results_of(dir / "again")["best_validation_loss"], r["best_validation_loss"]);
  EXPECT_EQ(std::filesystem::last_write_time(data / "manifest.cache.h5"), cached);
}

}  // namespace
}  // namespace surrox
