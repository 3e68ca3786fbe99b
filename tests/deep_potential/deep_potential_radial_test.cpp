// ctest-labels: unit
// ctest-libraries: surrox_deep_potential
// ctest-pch: torch
// The se_e2_r part beside se_e2_a (DeePMD-kit's hybrid on one environment; untrained, random
// weights, statistics from the frame, two atom types, with and without se_e3): forces are
// −dE/dx and the virial the strain derivative; the energy is invariant under rotation and
// permutation; training's precomputed path equals the on-the-fly one; a neighbour crossing rcut
// changes energy and slope continuously (an empty slot is a neighbour at rcut); a model without
// the se_e2_a embedding nets are drawn as without it; compression tabulates it; a model file keeps
// it.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "core/error.hpp"
#include "surrogates/deep_potential/compress.hpp"
#include "surrogates/deep_potential/model_file.hpp"
#include "surrogates/deep_potential/training_data.hpp"
#include "tests/deep_potential/deep_potential_test_frames.hpp"

namespace surrox::surrogates::deep_potential {
namespace {

using namespace test_frames;

SeE2aConfig radial_config(int ntypes, bool three_body = false) {
  SeE2aConfig c = small_config(ntypes, 5);
  c.radial_embedding = {4, 8};
  if (three_body) {
    c.three_body.rcut = 3.2;
    c.three_body.rcut_smth = 2.6;
    c.three_body.sel = std::vector<int>(ntypes, 8);
    c.three_body.embedding = {4, 8};
  }
  return c;
}

SeE2aModel radial_model(const TestFrame& f, bool three_body = false) {
  return model_with_statistics(radial_config(2, three_body), f, {-4.1, -3.9});
}

TEST(DeepPotentialRadial, ForcesAndVirialAreDerivatives) {
  const TestFrame f = diamond_frame(41);
  SeE2aModel m = radial_model(f);
  expect_forces_and_virial_are_derivatives(m, f, "with se_e2_r");
  SeE2aModel h = radial_model(f, true);
  expect_forces_and_virial_are_derivatives(h, f, "with se_e2_r and se_e3");
}

TEST(DeepPotentialRadial, InvariantUnderRotationAndPermutation) {
  const TestFrame f = diamond_frame(43);
  SeE2aModel m = radial_model(f, true);
  expect_rotation_and_permutation_invariance(m, f, 1.1);
}

TEST(DeepPotentialRadial, PrecomputedEqualsOnTheFly) {
  const TestFrame f = diamond_frame(47);
  SeE2aModel m = radial_model(f, true);
  const EnvBatch fly = batch_of(m->config(), f);
  EnvBatch pre = fly;
  precompute_environment(pre, m->config());
  expect_same_run(precompute_run(m, fly), precompute_run(m, pre));
}

TEST(DeepPotentialRadial, KeepsSeE2aEmbeddingsAndIsUsed) {
  const TestFrame f = diamond_frame(53);
  SeE2aConfig plain = radial_config(2);
  plain.radial_embedding.clear();
  SeE2aModel with = radial_model(f), without(plain);
  // The se_e2_a embedding nets are drawn first, so they are the same with and without the part
  // (the fitting nets' draws follow their grown input).
  const auto mine = with->named_parameters();
  long compared = 0;
  for (const auto& p : without->named_parameters()) {
    ASSERT_TRUE(mine.contains(p.key())) << p.key();
    if (p.key().find("embedding_") != 0) continue;
    EXPECT_TRUE(torch::equal(mine[p.key()], p.value())) << p.key();
    ++compared;
  }
  EXPECT_EQ(compared, 2 * 2 * 2 * 2);  // T² nets × 2 layers × (w, b)
  EXPECT_EQ(mine.size(), without->named_parameters().size() + 2 * 2 * 2 * 2);
  // The part is used: scaling one of its nets' weights moves the energy.
  const double e0 = energy_of(with, f);
  {
    torch::NoGradGuard no_grad;
    with->named_parameters()["radial_embedding_0_1.1.w"].mul_(1.01);
  }
  EXPECT_GT(std::fabs(energy_of(with, f) - e0), 1e-9);
}

TEST(DeepPotentialRadial, ContinuousAcrossTheCutoff) {
  // A second atom approaches the first through rcut (4.0 Å) in a big box: the se_e2_r sum
  // counts an empty slot as a neighbour at rcut, so energy and force are continuous.
  SeE2aConfig c = radial_config(1);
  SeE2aModel m(c);
  TestFrame ref{{10, 10, 10, 12.3, 10, 10, 10, 12.3, 10},
                {25, 0, 0, 0, 25, 0, 0, 0, 25},
                std::vector<int>(3, 0)};
  m->compute_statistics({batch_of(c, ref)});
  auto at = [&](double x) {
    TestFrame g = ref;
    g.coord[3] = 10 + x;
    return energy_of(m, g);
  };
  const double rc = c.rcut, eps = 1e-7, h = 1e-4;
  const double e_below = at(rc - eps), e_above = at(rc + eps);
  EXPECT_NEAR(e_below, e_above, 1e-8);
  const double below = (at(rc - eps) - at(rc - eps - h)) / h,
               above = (at(rc + eps + h) - at(rc + eps)) / h;
  EXPECT_NEAR(below, above, 1e-3 * std::max(1.0, std::fabs(below)));
  // Inside the switch the energy does depend on the distance (the check can fail).
  EXPECT_GT(std::fabs(at(rc - 0.5) - e_below), 1e-6);
  std::printf("across rcut with se_e2_r: ΔE = %.3g eV, slopes %.6g / %.6g eV/Å\n",
              e_above - e_below, below, above);
}

TEST(DeepPotentialRadial, ModelFileKeepsIt) {
  const TestFrame f = diamond_frame(59);
  SeE2aModel m = radial_model(f, true);
  const auto path = std::filesystem::temp_directory_path() / "surrox_dp_radial_model.pt";
  save_model(path, m, nlohmann::json::object());
  nlohmann::json meta;
  SeE2aModel back = load_model(path, &meta);
  std::filesystem::remove(path);
  EXPECT_EQ(back->config().radial_embedding, m->config().radial_embedding);
  EXPECT_EQ(meta.at("model").at("descriptor"), "hybrid: se_e2_a + se_e3 + se_e2_r");
  EXPECT_DOUBLE_EQ(energy_of(back, f), energy_of(m, f));
}

// compress() tabulates the se_e2_r nets over se_e2_a's range: energies and forces of another
// frame agree with the nets', and a saved compressed model reloads to the same numbers.
TEST(DeepPotentialRadial, CompressedMatchesTheNets) {
  const TestFrame f = diamond_frame(61);
  SeE2aModel full = radial_model(f), compressed = radial_model(f);
  SystemData s;
  s.env.push_back(build_environment(f.coord.data(), f.box.data(), f.types, full->config().rcut,
                                    full->config().sel));
  compressed->compress(compressed->table_range(min_neighbor_distance({s}), 0.01, 5));
  const EnvBatch b = batch_of(full->config(), diamond_frame(62));
  const Prediction p = predict(full, b), q = predict(compressed, b);
  const double de = (p.energy - q.energy).abs().max().item<double>();
  const double df = (p.force - q.force).abs().max().item<double>();
  std::printf("compressed with se_e2_r: |ΔE| %.3e eV, max |ΔF| %.3e eV/Å\n", de, df);
  EXPECT_LT(df, 1e-6);
  EXPECT_LT(de, 1e-8);
  EXPECT_EQ(compressed->table_overflow(), 0);
  // Its tables are what is evaluated: perturbing one moves the forces.
  SeE2aModel perturbed = radial_model(f);
  perturbed->compress(compressed->table_params());
  {
    torch::NoGradGuard no_grad;
    perturbed->named_buffers()["radial_table_1_0"].mul_(1.001);
  }
  EXPECT_GT((predict(perturbed, b).force - q.force).abs().max().item<double>(), 1e-7);
  const auto path = std::filesystem::temp_directory_path() / "surrox_dp_radial_compressed.pt";
  save_model(path, compressed, nlohmann::json::object());
  SeE2aModel back = load_model(path);
  std::filesystem::remove(path);
  EXPECT_TRUE(torch::equal(predict(back, b).force, q.force));
}

}  // namespace
}  // namespace surrox::surrogates::deep_potential
