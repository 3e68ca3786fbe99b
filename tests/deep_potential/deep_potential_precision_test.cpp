// ctest-labels: unit
// ctest-libraries: surrox_deep_potential
// ctest-pch: torch
// Deep potentials with float32 nets (DeePMD-kit's `precision: float32`): the nets hold the
// float64 model's initial weights rounded, the statistics and bias stay float64, and the
// predictions (float64 energies, forces, virial) are the float64 model's to float32 rounding,
// with and without the three-body and radial parts and compressed; a float32 model saved and
// reloaded predicts identically and stays float32; an unknown precision is an InputError.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/error.hpp"
#include "support/test_paths.hpp"
#include "surrogates/deep_potential/model_file.hpp"
#include "surrogates/deep_potential/se_e2_a.hpp"

namespace surrox::surrogates::deep_potential {
namespace {

// Diamond silicon, 2×2×2 cells (64 atoms), displaced at random by up to 0.15 Å.
std::vector<double> precision_silicon(unsigned seed, std::vector<double>* box) {
  const double a = 5.431;
  const double basis[8][3] = {{0, 0, 0},       {0, .5, .5},     {.5, 0, .5},     {.5, .5, 0},
                              {.25, .25, .25}, {.25, .75, .75}, {.75, .25, .75}, {.75, .75, .25}};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> shift(-0.15, 0.15);
  std::vector<double> coord;
  for (int c = 0; c < 8; ++c)
    for (const auto& b : basis)
      for (int d = 0; d < 3; ++d) coord.push_back(((c >> d) & 1) * a + b[d] * a + shift(rng));
  *box = {2 * a, 0, 0, 0, 2 * a, 0, 0, 0, 2 * a};
  return coord;
}

EnvBatch precision_batch(const SeE2aConfig& c, unsigned seed) {
  std::vector<double> box;
  const std::vector<double> coord = precision_silicon(seed, &box);
  const std::vector<int> types(64, 0);
  return make_batch({build_environment(coord.data(), box.data(), types, c.rcut, c.sel)}, types, 1);
}

// The default model with the three-body and radial parts, in `precision`, statistics from one
// frame.
SeE2aModel precision_model(const std::string& precision) {
  SeE2aConfig c;
  c.three_body.rcut = 3.8;
  c.three_body.rcut_smth = 2.0;
  c.three_body.sel = {12};
  c.three_body.embedding = {4, 8};
  c.radial_embedding = {4, 8};
  c.precision = precision;
  SeE2aModel m(c);
  m->compute_statistics({precision_batch(c, 1)});
  m->bias.fill_(-4.3);
  return m;
}

// Largest |a − b| over the largest |b|.
double relative_gap(const torch::Tensor& a, const torch::Tensor& b) {
  return ((a - b).abs().max() / b.abs().max()).item<double>();
}

TEST(DeepPotentialPrecision, Float32NetsAreTheFloat64ModelRounded) {
  SeE2aModel m64 = precision_model("float64"), m32 = precision_model("float32");
  const auto p64 = m64->named_parameters(), p32 = m32->named_parameters();
  ASSERT_EQ(p64.size(), p32.size());
  for (const auto& item : p64) {
    const torch::Tensor& w32 = p32[item.key()];
    EXPECT_EQ(w32.scalar_type(), torch::kFloat32) << item.key();
    EXPECT_TRUE(torch::equal(w32, item.value().to(torch::kFloat32))) << item.key();
  }
  EXPECT_EQ(m32->davg.scalar_type(), torch::kFloat64);
  EXPECT_EQ(m32->dstd3.scalar_type(), torch::kFloat64);
  EXPECT_TRUE(torch::equal(m32->dstd, m64->dstd));

  const EnvBatch b = precision_batch(m64->config(), 2);
  const Prediction q64 = predict(m64, b), q32 = predict(m32, b);
  EXPECT_EQ(q32.energy.scalar_type(), torch::kFloat64);
  EXPECT_EQ(q32.force.scalar_type(), torch::kFloat64);
  const double de = relative_gap(q32.energy, q64.energy), df = relative_gap(q32.force, q64.force),
               dv = relative_gap(q32.virial, q64.virial);
  std::printf("float32 vs float64 nets: ΔE/E %.2e, max ΔF / max F %.2e, ΔW %.2e\n", de, df, dv);
  EXPECT_LT(de, 1e-6);
  EXPECT_LT(df, 1e-4);
  EXPECT_LT(dv, 1e-4);
  EXPECT_GT(df, 0.0);  // float32 arithmetic did run
  EXPECT_GT(q64.force.abs().max().item<double>(), 1e-3);
}

TEST(DeepPotentialPrecision, CompressedFloat32ModelMatchesItsNets) {
  SeE2aModel full = precision_model("float32"), compressed = precision_model("float32");
  compressed->compress(compressed->table_range(1.8, 0.01, 5));
  compressed->compress_three_body(compressed->three_body_table_range(1.8, 0.01, 5));
  // The nets keep their float32 weights through the float64 tabulation.
  for (const auto& item : compressed->named_parameters())
    EXPECT_EQ(item.value().scalar_type(), torch::kFloat32) << item.key();
  const EnvBatch b = precision_batch(full->config(), 3);
  const Prediction p = predict(full, b), q = predict(compressed, b);
  const double df = relative_gap(q.force, p.force);
  std::printf("compressed float32: max ΔF / max F %.2e\n", df);
  EXPECT_LT(relative_gap(q.energy, p.energy), 1e-6);
  EXPECT_LT(df, 1e-4);
  EXPECT_EQ(compressed->table_overflow(), 0);
}

TEST(DeepPotentialPrecision, SavedFloat32ModelReloadsAsFloat32) {
  SeE2aModel m = precision_model("float32");
  const auto path = testing::scratch_dir() / "float32.pt";
  save_model(path, m);
  SeE2aModel r = load_model(path);
  EXPECT_EQ(r->config().precision, "float32");
  EXPECT_EQ(r->config().to_json().at("precision"), "float32");
  for (const auto& item : r->named_parameters())
    EXPECT_EQ(item.value().scalar_type(), torch::kFloat32) << item.key();
  const EnvBatch b = precision_batch(m->config(), 4);
  const Prediction p = predict(m, b), q = predict(r, b);
  EXPECT_TRUE(torch::equal(p.energy, q.energy));
  EXPECT_TRUE(torch::equal(p.force, q.force));
  // float64 models keep their metadata as before: no precision key.
  EXPECT_FALSE(SeE2aConfig{}.to_json().contains("precision"));
}

TEST(DeepPotentialPrecision, UnknownPrecisionIsAnInputError) {
  SeE2aConfig c;
  c.precision = "float16";
  try {
    SeE2aModel m(c);
    FAIL() << "accepted float16";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("float64 or float32; got float16"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace surrox::surrogates::deep_potential
