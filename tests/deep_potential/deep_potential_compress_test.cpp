// ctest-labels: unit
// ctest-libraries: surrox_deep_potential
// ctest-pch: torch
// Model compression of the se_e2_a deep potential (untrained, random weights, statistics from
// the frame): the quintic table reproduces an embedding net's value and slope; the compressed
// model's energy and forces match the uncompressed one on a Si frame; a neighbour beyond the
// table's end is held at the last value with zero slope and counted; a compressed model saved
// and reloaded gives identical energies.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/error.hpp"
#include "support/test_paths.hpp"
#include "surrogates/deep_potential/compress.hpp"
#include "surrogates/deep_potential/model_file.hpp"
#include "surrogates/deep_potential/se_e2_a.hpp"

namespace surrox::surrogates::deep_potential {
namespace {

struct SiFrame {
  std::vector<double> coord, box;
  std::vector<int> types;
};

// Diamond silicon, 2×2×2 cells (64 atoms), displaced at random by up to `jitter` Å.
SiFrame jittered_silicon(unsigned seed, double jitter) {
  const double a = 5.431;
  const double basis[8][3] = {{0, 0, 0},       {0, .5, .5},     {.5, 0, .5},     {.5, .5, 0},
                              {.25, .25, .25}, {.25, .75, .75}, {.75, .25, .75}, {.75, .75, .25}};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> shift(-jitter, jitter);
  SiFrame f;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 2; ++k)
        for (const auto& b : basis) {
          for (int d = 0; d < 3; ++d)
            f.coord.push_back(((d == 0 ? i : d == 1 ? j : k) + b[d]) * a + shift(rng));
          f.types.push_back(0);
        }
  f.box = {2 * a, 0, 0, 0, 2 * a, 0, 0, 0, 2 * a};
  return f;
}

EnvBatch si_batch(const SeE2aConfig& c, const SiFrame& f) {
  const FrameEnvironment env =
      build_environment(f.coord.data(), f.box.data(), f.types, c.rcut, c.sel);
  return make_batch({env}, f.types, c.ntypes());
}

double smallest_distance(const SeE2aConfig& c, const SiFrame& f) {
  SystemData s;
  s.env.push_back(build_environment(f.coord.data(), f.box.data(), f.types, c.rcut, c.sel));
  return min_neighbor_distance({s});
}

// The default model (Si, embedding 16-32-64), statistics from `f`.
SeE2aModel default_model(const SiFrame& f) {
  SeE2aModel m{SeE2aConfig{}};
  m->compute_statistics({si_batch(m->config(), f)});
  m->bias.copy_(torch::tensor({-4.3}, torch::kFloat64));
  return m;
}

TEST(DeepPotentialCompress, TableReproducesTheEmbeddingNet) {
  const SiFrame f = jittered_silicon(5, 0.15);
  SeE2aModel m = default_model(f);
  const TableParams p = m->table_range(smallest_distance(m->config(), f), 0.01, 5);
  ASSERT_LT(p.lower, 0);
  ASSERT_GT(p.upper, 0);
  const torch::Tensor coefficients =
      tabulate_embedding([&](const torch::Tensor& x) { return m->embed(0, 0, x); }, p);
  EXPECT_EQ(coefficients.size(0), p.intervals());
  EXPECT_EQ(coefficients.size(1), 6);
  EXPECT_EQ(coefficients.size(2), 64);
  TableOverflow overflow;
  auto compare = [&](double a, double b, double* value_error, double* slope_error) {
    const torch::Tensor x =
        (a + (b - a) * torch::rand({4000, 1}, torch::kFloat64)).requires_grad_(true);
    const torch::Tensor net = m->embed(0, 0, x);
    const torch::Tensor table = evaluate_table(x, coefficients, p, overflow);
    *value_error = (net - table).abs().max().item<double>();
    // Σ_m G_m: one gradient checks the slope of every column at once (weighted at random).
    const torch::Tensor w = torch::randn({net.size(1)}, torch::kFloat64);
    const torch::Tensor gn = torch::autograd::grad({(net * w).sum()}, {x})[0];
    const torch::Tensor gt = torch::autograd::grad({(table * w).sum()}, {x})[0];
    *slope_error = ((gn - gt).abs().max() / w.abs().sum()).item<double>();
  };
  double value, slope;
  compare(p.lower, p.upper, &value, &slope);
  std::printf("fine part [%.3f, %.3f]: max |G − table| %.3e, slope error %.3e\n", p.lower, p.upper,
              value, slope);
  EXPECT_LT(value, 1e-10);
  EXPECT_LT(slope, 1e-7);
  compare(p.upper, p.end(), &value, &slope);
  std::printf("coarse part [%.3f, %.3f]: max |G − table| %.3e, slope error %.3e\n", p.upper,
              p.end(), value, slope);
  EXPECT_LT(value, 1e-5);
  EXPECT_LT(slope, 1e-3);
  EXPECT_EQ(overflow.points, 0);
  // Nodes: the net's values exactly (the quintic's a0), and continuous from the left.
  const torch::Tensor nodes =
      torch::tensor({p.node(7), p.node(p.fine_intervals() + 3)}, torch::kFloat64).unsqueeze(1);
  const torch::Tensor left = nodes - 1e-12;
  EXPECT_LT((evaluate_table(left, coefficients, p, overflow) - m->embed(0, 0, nodes))
                .abs()
                .max()
                .item<double>(),
            1e-9);
}

TEST(DeepPotentialCompress, CompressedModelMatchesTheNetOnSilicon) {
  const SiFrame f = jittered_silicon(7, 0.15);
  SeE2aModel full = default_model(f), compressed = default_model(f);
  compressed->compress(compressed->table_range(smallest_distance(full->config(), f), 0.01, 5));
  ASSERT_TRUE(compressed->compressed());
  const SiFrame g = jittered_silicon(8, 0.2);  // another frame, inside the table
  const EnvBatch b = si_batch(full->config(), g);
  const Prediction p = predict(full, b), q = predict(compressed, b);
  const double de = (p.energy - q.energy).abs().max().item<double>();
  const double df = (p.force - q.force).abs().max().item<double>();
  const double dv = (p.virial - q.virial).abs().max().item<double>();
  std::printf(
      "64 Si atoms: |ΔE| %.3e eV, max |ΔF| %.3e eV/Å, max |ΔW| %.3e eV (force scale %.3f)\n", de,
      df, dv, p.force.abs().max().item<double>());
  EXPECT_LT(df, 1e-3);  // acceptance
  EXPECT_LT(df, 1e-8);  // measured ~1e-11
  EXPECT_LT(de, 1e-10);
  EXPECT_GT(p.force.abs().max().item<double>(), 1e-3);  // the comparison is not of zeros
  EXPECT_EQ(compressed->table_overflow(), 0);
}

TEST(DeepPotentialCompress, BeyondTheTableHoldsTheLastValueAndWarns) {
  const SiFrame f = jittered_silicon(9, 0.05);
  SeE2aModel m = default_model(f);
  const double r_min = smallest_distance(m->config(), f);
  // A table sized for neighbours no closer than r_min, without extrapolation margin.
  m->compress(m->table_range(r_min, 0.01, 1));
  const TableParams& p = m->table_params();
  const torch::Tensor x = torch::tensor({p.end() + 0.5, p.end() + 3.0}, torch::kFloat64)
                              .unsqueeze(1)
                              .requires_grad_(true);
  TableOverflow overflow;
  const torch::Tensor coefficients = m->named_buffers()["table_0_0"];
  const torch::Tensor g = evaluate_table(x, coefficients, p, overflow);
  EXPECT_EQ(overflow.points, 2);
  const torch::Tensor last =
      evaluate_table(torch::tensor({p.node(p.intervals()) - 1e-13}, torch::kFloat64).unsqueeze(1),
                     coefficients, p, overflow);
  EXPECT_LT((g[0] - last[0]).abs().max().item<double>(), 1e-9);
  EXPECT_EQ((g[0] - g[1]).abs().max().item<double>(), 0.0);
  const torch::Tensor slope = torch::autograd::grad({g.sum()}, {x})[0];
  EXPECT_EQ(slope.abs().max().item<double>(), 0.0);
  // A frame with a pair closer than the table covers: counted, energy still finite.
  SiFrame close = f;
  close.coord[0] = close.coord[3 * 4] - 1.8;  // atom 0 near atom 4 (nearest neighbours)
  close.coord[1] = close.coord[3 * 4 + 1] - 0.4;
  close.coord[2] = close.coord[3 * 4 + 2] - 0.4;
  const EnvBatch b = si_batch(m->config(), close);
  const Prediction q = predict(m, b);
  EXPECT_GT(m->table_overflow(), 0);
  EXPECT_TRUE(std::isfinite(q.energy.item<double>()));
}

TEST(DeepPotentialCompress, SavedAndReloadedGivesIdenticalEnergies) {
  const SiFrame f = jittered_silicon(10, 0.15);
  SeE2aModel m = default_model(f);
  m->compress(m->table_range(smallest_distance(m->config(), f), 0.01, 5));
  const auto path = testing::scratch_dir() / "compressed.pt";
  save_model(path, m, {{"note", "test"}});
  nlohmann::json meta;
  SeE2aModel r = load_model(path, &meta);
  ASSERT_TRUE(r->compressed());
  ASSERT_TRUE(meta.contains("compression"));
  EXPECT_EQ(meta["compression"]["stride"], 0.01);
  EXPECT_EQ(meta["compression"]["intervals"], m->table_params().intervals());
  const EnvBatch b = si_batch(m->config(), jittered_silicon(11, 0.15));
  const Prediction p = predict(m, b), q = predict(r, b);
  EXPECT_EQ((p.energy - q.energy).abs().max().item<double>(), 0.0);
  EXPECT_EQ((p.force - q.force).abs().max().item<double>(), 0.0);
  // Compressing twice is refused.
  EXPECT_THROW(r->compress(r->table_params()), InputError);
}

TEST(DeepPotentialCompress, CompressModelFileWritesAMarkedModel) {
  const SiFrame f = jittered_silicon(12, 0.15);
  SeE2aModel m = default_model(f);
  const auto dir = testing::scratch_dir();
  save_model(dir / "model.pt", m, {{"steps", 7}});
  CompressOptions options;
  options.min_distance = 2.0;
  const nlohmann::json report =
      compress_model_file(dir / "model.pt", dir / "compressed.pt", options);
  EXPECT_EQ(report["min_distance"], 2.0);
  EXPECT_EQ(report["tables"], 1);
  nlohmann::json meta;
  SeE2aModel r = load_model(dir / "compressed.pt", &meta);
  EXPECT_TRUE(r->compressed());
  EXPECT_EQ(meta["compression"]["extrapolate"], 5.0);
  EXPECT_EQ(meta["training"]["steps"], 7);  // the training record is kept
  EXPECT_EQ(meta["training"]["compressed_from"], (dir / "model.pt").string());
  const EnvBatch b = si_batch(m->config(), f);
  EXPECT_LT((predict(m, b).force - predict(r, b).force).abs().max().item<double>(), 1e-10);
  // A compressed model cannot be compressed again; without data or r_min it cannot be sized.
  EXPECT_THROW(compress_model_file(dir / "compressed.pt", dir / "again.pt", options), InputError);
  EXPECT_THROW(compress_model_file(dir / "model.pt", dir / "again.pt", CompressOptions{}),
               InputError);
}

}  // namespace
}  // namespace surrox::surrogates::deep_potential
