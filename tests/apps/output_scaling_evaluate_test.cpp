// ctest-labels: regression
// ctest-libraries: surrox_cli surrox_io surrox_io_vtk
// ctest-pch: torch
// `data.scale_outputs` end to end: cases on one mesh whose cell array p = Re · (cell index) is
// Re times one shape. Declared as `p/Re`, the evaluate baselines interpolate p/Re, which is
// the same in every case, so nearest case and inverse-distance interpolation are exact (0 error
// on the held-out cases); undeclared, interpolating p itself in Re is not. The trained model
// records the scaling and evaluate's truth stays physical (the model's own errors are those of
// p, not of p/Re). Bad entries and a zero divisor are exit-2 errors naming the key.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "support/test_paths.hpp"
#include "surrogates/surrogate.hpp"
#include "training/synthetic_collection.hpp"

namespace surrox {
namespace {

nlohmann::json results_of(const std::filesystem::path& dir) {
  std::ifstream in(dir / "summary.json");
  return nlohmann::json::parse(in)["results"];
}

// Six cases on the 5 × 5-point square, Re 1 … 3.5 (and one more, Re 0, when asked).
std::filesystem::path write_cases(const std::filesystem::path& folder, bool with_zero) {
  std::filesystem::create_directories(folder);
  std::ofstream manifest(folder / "manifest.csv");
  manifest << "file,Re\n";
  for (int k = 0; k < 6 + (with_zero ? 1 : 0); ++k) {
    const double re = k < 6 ? 1.0 + 0.5 * k : 0.0;
    const std::string file = "case_" + std::to_string(k) + ".vtu";
    io::write_vtk(training::testing::square_mesh(5, re), folder / file);
    manifest << file << "," << re << "\n";
  }
  return folder / "manifest.csv";
}

std::string train_args(const std::filesystem::path& manifest, const std::string& scale,
                       const std::filesystem::path& out) {
  std::ofstream config(out.string() + ".yml");
  config << "family: field\nruntime: {threads: 1, log_level: warn}\n"
            "data: {type: collection, files: "
         << manifest.string()
         << ", rows: cells, inputs: [coord_x, coord_y], parameters: [Re], outputs: [p], "
            "split: [0.67, 0.33, 0.0], seed: 1, dtype: float64"
         << scale
         << "}\nnetwork: {type: mlp, hidden: [16]}\n"
            "training: {epochs: 3, batch_size: 64, seed: 1}\n";
  return "train " + out.string() + ".yml -o " + out.string();
}

TEST(OutputScaling, BaselinesInterpolateTheScaledFieldsAndTheTruthStaysPhysical) {
  const auto dir = surrox::testing::scratch_dir();
  const auto manifest = write_cases(dir / "data", false);
  std::string out;
  ASSERT_EQ(surrox::testing::run_surrox(
                train_args(manifest, ", scale_outputs: [p/Re]", dir / "scaled"), &out),
            0)
      << out;
  ASSERT_EQ(surrox::testing::run_surrox(train_args(manifest, "", dir / "plain"), &out), 0) << out;
  const auto model = surrogates::Surrogate::load(dir / "scaled" / "model.pt");
  ASSERT_EQ(model->metadata().output_scaling.factors.size(), 1u);
  EXPECT_EQ(model->metadata().output_scaling.factors[0].input, 2);  // Re

  for (const char* name : {"scaled", "plain"}) {
    ASSERT_EQ(surrox::testing::run_surrox("evaluate " + (dir / name / "model.pt").string() + " " +
                                              manifest.string() + " -o " +
                                              (dir / (std::string(name) + "_eval")).string(),
                                          &out),
              0)
        << out;
  }
  const auto scaled = results_of(dir / "scaled_eval"), plain = results_of(dir / "plain_eval");
  EXPECT_EQ(scaled["baselines"]["combined_by"], "one mesh") << scaled.dump();
  EXPECT_LT(scaled["baselines"]["idw3_median"]["p"].get<double>(), 1e-12) << scaled.dump();
  EXPECT_LT(scaled["baselines"]["nearest_case_median"]["p"].get<double>(), 1e-12) << scaled.dump();
  EXPECT_GT(plain["baselines"]["idw3_median"]["p"].get<double>(), 0.01) << plain.dump();
  // The model's error is of p: its absolute RMS is in p's units, so the scaled model's (which
  // learned p/Re ≈ up to 31) and the plain one's are both of the order of p (up to 3.5 · 31).
  EXPECT_GT(scaled["absolute_rms"]["p"].get<double>(), 0) << scaled.dump();
  EXPECT_LT(scaled["relative_l2"]["p"].get<double>(), 2.0) << scaled.dump();
}

TEST(OutputScaling, BadEntriesAndZeroDivisorsAreExit2NamingTheKey) {
  const auto dir = surrox::testing::scratch_dir();
  const auto manifest = write_cases(dir / "data", false);
  std::string out;
  EXPECT_EQ(surrox::testing::run_surrox(
                train_args(manifest, ", scale_outputs: [q/Re]", dir / "bad_output"), &out),
            2);
  EXPECT_NE(out.find("scale_outputs"), std::string::npos) << out;
  EXPECT_NE(out.find("OUTPUT one of the outputs (p)"), std::string::npos) << out;
  EXPECT_EQ(surrox::testing::run_surrox(
                train_args(manifest, ", scale_outputs: [p/Mach]", dir / "bad_input"), &out),
            2);
  EXPECT_NE(out.find("the inputs are coord_x, coord_y, Re"), std::string::npos) << out;
  const auto with_zero = write_cases(dir / "zero", true);
  EXPECT_EQ(surrox::testing::run_surrox(
                train_args(with_zero, ", scale_outputs: [p/Re]", dir / "zero_re"), &out),
            2);
  EXPECT_NE(out.find("not positive and finite"), std::string::npos) << out;
}

}  // namespace
}  // namespace surrox
