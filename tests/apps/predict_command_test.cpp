// ctest-labels: regression
// ctest-libraries: surrox_cli
// ctest-pch: torch
// `surrox predict MODEL DATA`: an mlp trained in seconds by `surrox train` on a collection of
// small VTK files (a different mesh per case, point arrays u and velocity, parameter Re), applied
// to a held-out file that has no output arrays. prediction.vtu, read back with VTK, has the
// held-out mesh (points and cells as written), its other arrays, and the predicted arrays under
// their trained names equal to the model's own prediction of the same rows. A model of another
// family, DATA of several cases, DATA a field model cannot read, and a case without the
// parameters the model takes are exit 2 naming what predict accepts.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "io/vtk_reader.hpp"
#include "support/test_paths.hpp"
#include "surrogates/model_file.hpp"
#include "surrogates/surrogate.hpp"
#include "training/synthetic_collection.hpp"

namespace surrox {
namespace {

namespace fs = std::filesystem;

nlohmann::json predict_results_of(const fs::path& dir) {
  std::ifstream in(dir / "summary.json");
  return nlohmann::json::parse(in)["results"];
}

// Trains a small point-row model on 6 synthetic cases; returns model.pt.
fs::path train_point_model(const fs::path& dir) {
  training::testing::make_collection(dir / "train", 6);
  std::ofstream(dir / "train.yml") << R"(family: field
runtime: {threads: 1, log_level: warn}
data: {type: collection, files: train/manifest.csv, inputs: [coord_x, coord_y], parameters: [Re],
       outputs: [u, velocity], split: [0.7, 0.3, 0.0], seed: 1}
network: {type: mlp, hidden: [8], activation: tanh}
training: {epochs: 3, batch_size: 64, seed: 1, optimizer: {type: adam, lr: 3.0e-3},
           loss: {type: mse}}
)";
  std::string out;
  EXPECT_EQ(surrox::testing::run_surrox(
                "train " + (dir / "train.yml").string() + " -o " + (dir / "model").string(), &out),
            0)
      << out;
  return dir / "model" / "model.pt";
}

void expect_near_relative(double got, double want, const std::string& what) {
  EXPECT_NEAR(got, want, 1e-6 * std::max(1.0, std::abs(want))) << what;
}

TEST(PredictCommand, WritesTheModelsPredictionOnTheHeldOutMesh) {
  const auto dir = surrox::testing::scratch_dir();
  const fs::path model_path = train_point_model(dir);
  ASSERT_TRUE(fs::exists(model_path));
  // The held-out case: another mesh, another Re, and none of the output arrays.
  io::MeshData heldout = training::testing::square_mesh(9, 2.2);
  heldout.point_data.clear();
  io::write_vtk(heldout, dir / "heldout.vtu");
  std::ofstream(dir / "heldout.csv") << "file,Re\nheldout.vtu,2.2\n";

  std::string out;
  const fs::path predicted = dir / "predicted";
  ASSERT_EQ(
      surrox::testing::run_surrox("predict " + model_path.string() + " " +
                                      (dir / "heldout.csv").string() + " -o " + predicted.string(),
                                  &out),
      0)
      << out;
  const auto r = predict_results_of(predicted);
  EXPECT_EQ(r["family"], "field");
  EXPECT_EQ(r["rows"], "points");
  EXPECT_EQ(r["row_count"], 81);
  EXPECT_EQ(r["arrays"].size(), 2u) << r.dump();

  const io::MeshData back = io::read_vtk_single(predicted / "prediction.vtu");
  ASSERT_EQ(back.number_of_points(), heldout.number_of_points());
  for (std::size_t p = 0; p < back.number_of_points(); ++p)
    for (int d = 0; d < 3; ++d) EXPECT_EQ(back.points(p, d), heldout.points(p, d));
  EXPECT_EQ(back.cell_types, heldout.cell_types);
  EXPECT_EQ(back.cell_offsets, heldout.cell_offsets);
  EXPECT_EQ(back.connectivity, heldout.connectivity);
  ASSERT_NE(back.find_cell_array("p"), nullptr);  // the case's own arrays stay

  // The model's own prediction of the same rows: x, y, Re.
  const auto model = surrogates::Surrogate::load(model_path);
  const long n = static_cast<long>(heldout.number_of_points());
  torch::Tensor inputs = torch::empty({n, 3}, torch::kFloat64);
  for (long p = 0; p < n; ++p) {
    inputs[p][0] = heldout.points(p, 0);
    inputs[p][1] = heldout.points(p, 1);
    inputs[p][2] = 2.2;
  }
  const torch::Tensor want = model->predict(inputs);  // u, velocity[0..2]
  const io::NamedArray* u = back.find_point_array("u");
  const io::NamedArray* velocity = back.find_point_array("velocity");
  ASSERT_NE(u, nullptr);
  ASSERT_NE(velocity, nullptr);
  ASSERT_EQ(u->components(), 1u);
  ASSERT_EQ(velocity->components(), 3u);
  for (long p = 0; p < n; ++p) {
    expect_near_relative(u->values(p, 0), want[p][0].item<double>(), "u at " + std::to_string(p));
    for (long k = 0; k < 3; ++k)
      expect_near_relative(velocity->values(p, k), want[p][1 + k].item<double>(),
                           "velocity at " + std::to_string(p));
  }
}

TEST(PredictCommand, RefusesWhatItCannotPredictWithExitTwo) {
  const auto dir = surrox::testing::scratch_dir();
  const fs::path model_path = train_point_model(dir);
  ASSERT_TRUE(fs::exists(model_path));
  io::write_vtk(training::testing::square_mesh(5, 2.0), dir / "heldout.vtu");
  std::string out;
  const auto predict = [&](const fs::path& model, const fs::path& data) {
    return surrox::testing::run_surrox(
        "predict " + model.string() + " " + data.string() + " -o " + (dir / "out").string(), &out);
  };
  // A model of another family.
  {
    torch::serialize::OutputArchive archive;
    surrogates::write_model_archive(dir / "other.pt", archive, {{"family", "pod_lstm"}});
  }
  EXPECT_EQ(predict(dir / "other.pt", dir / "heldout.vtu"), 2) << out;
  EXPECT_NE(out.find("family 'pod_lstm'"), std::string::npos) << out;
  EXPECT_NE(out.find("surrox predict takes a `field` model"), std::string::npos) << out;
  // Several cases: the training manifest.
  EXPECT_EQ(predict(model_path, dir / "train" / "manifest.csv"), 2) << out;
  EXPECT_NE(out.find("holds 6 cases"), std::string::npos) << out;
  // A file no collection reads.
  std::ofstream(dir / "notes.txt") << "not a mesh\n";
  EXPECT_EQ(predict(model_path, dir / "notes.txt"), 2) << out;
  EXPECT_NE(out.find("surrox predict " + model_path.string()), std::string::npos) << out;
  EXPECT_NE(out.find("DATA must be"), std::string::npos) << out;
  // The model takes Re: a bare VTK file has none.
  EXPECT_EQ(predict(model_path, dir / "heldout.vtu"), 2) << out;
  EXPECT_NE(out.find("give a manifest"), std::string::npos) << out;
  EXPECT_EQ(out.find("--set data.files"), std::string::npos) << out;
  // No such case.
  EXPECT_EQ(predict(model_path, dir / "missing.vtu"), 2) << out;
  EXPECT_NE(out.find("no such case"), std::string::npos) << out;
}

}  // namespace
}  // namespace surrox
