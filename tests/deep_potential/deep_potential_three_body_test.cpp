// ctest-labels: unit
// ctest-libraries: surrox_deep_potential
// ctest-pch: torch
// The se_e3 three-body part beside se_e2_a (DeePMD-kit's hybrid; untrained, random weights,
// statistics from the frame, two atom types): it tells the tetrahedral centre from the square
// one, which se_e2_a alone cannot; forces are −dE/dx and the virial the strain derivative with
// it; the energy is invariant under rotation and permutation; training's precomputed path
// equals the on-the-fly one, weight gradients included; a neighbour crossing the three-body
// cutoff changes energy and slope continuously; compression tabulates it; a model file keeps
// it; bad settings are refused.
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

SeE2aConfig three_body_config(int ntypes) {
  SeE2aConfig c = small_config(ntypes, 3);
  c.three_body.rcut = 3.2;
  c.three_body.rcut_smth = 2.6;
  c.three_body.sel = std::vector<int>(ntypes, 8);
  c.three_body.embedding = {4, 8};
  return c;
}

SeE2aModel three_body_model(const TestFrame& f, int ntypes = 2) {
  return model_with_statistics(three_body_config(ntypes), f, std::vector<double>(ntypes, -4.1));
}

TEST(DeepPotentialThreeBody, TellsTetrahedralFromSquarePlanarCentres) {
  TestFrame f = diamond_frame(5);
  f.types.assign(64, 0);
  SeE2aModel m = three_body_model(f, 1);
  EXPECT_GT(m->dstd3[0][1].item<double>(), 0.0);
  const double et = centre_energy(m, tetrahedral_centre()), es = centre_energy(m, square_centre());
  EXPECT_GT(std::fabs(et - es), 1e-4 * std::fabs(es));
  // The same model without its three-body part sees no difference (as
  // DeepPotentialModel.TetrahedralAndSquarePlanarCentresLookTheSame).
  SeE2aConfig plain = m->config();
  plain.three_body = SeE3Config{};
  SeE2aModel p(plain);
  p->compute_statistics({batch_of(plain, f)});
  const double pt = centre_energy(p, tetrahedral_centre()), ps = centre_energy(p, square_centre());
  EXPECT_NEAR(pt, ps, 1e-12 * std::fabs(pt));
  std::printf("centre energy with se_e3: tetrahedral %.12g, square %.12g; without: %.12g, %.12g\n",
              et, es, pt, ps);
}

TEST(DeepPotentialThreeBody, ForcesAndVirialAreDerivatives) {
  const TestFrame f = diamond_frame(17);
  SeE2aModel m = three_body_model(f);
  expect_forces_and_virial_are_derivatives(m, f, "with se_e3");
}

TEST(DeepPotentialThreeBody, InvariantUnderRotationAndPermutation) {
  const TestFrame f = diamond_frame(19);
  SeE2aModel m = three_body_model(f);
  expect_rotation_and_permutation_invariance(m, f, 0.7);
}

TEST(DeepPotentialThreeBody, PrecomputedEqualsOnTheFly) {
  const TestFrame f = diamond_frame(23);
  SeE2aModel m = three_body_model(f);
  const EnvBatch fly = batch_of(m->config(), f);
  EnvBatch pre = fly;
  precompute_environment(pre, m->config());
  ASSERT_TRUE(pre.env3.defined());
  const PrecomputeRun a = precompute_run(m, fly), b = precompute_run(m, pre);
  expect_same_run(a, b);
  // The three-body derivative is used: scaling it moves the forces (the check can fail).
  EnvBatch off = pre;
  off.env3_deriv = pre.env3_deriv * 1.01;
  EXPECT_GT(max_relative(predict(m, off).force, a.p.force), 1e-6);
  // A precomputed batch without the three-body part is an error, not a silent se_e2_a.
  EnvBatch partial = pre;
  partial.env3 = torch::Tensor();
  EXPECT_THROW(predict(m, partial), Error);
}

TEST(DeepPotentialThreeBody, ContinuousAcrossItsCutoff) {
  // Two atoms in a big box approach through the three-body cutoff (3.2 Å) with a third one
  // bonded to the first, so that an angle switches on: energy and force are continuous.
  SeE2aConfig c = three_body_config(1);
  SeE2aModel m(c);
  TestFrame ref{{10, 10, 10, 12.3, 10, 10, 10, 12.3, 10, 11.5, 11.5, 10},
                {25, 0, 0, 0, 25, 0, 0, 0, 25},
                std::vector<int>(4, 0)};
  m->compute_statistics({batch_of(c, ref)});
  auto at = [&](double x) {
    TestFrame g = ref;
    g.coord[3] = 10 + x;
    return energy_of(m, g);
  };
  const double rc = c.three_body.rcut, eps = 1e-7;
  const double e_below = at(rc - eps), e_above = at(rc + eps);
  EXPECT_NEAR(e_below, e_above, 1e-8);  // slope × 2·10⁻⁷ Å ≈ 10⁻⁹
  // The slope too (the switch's derivative vanishes at rcut): one-sided differences 1e-4 Å
  // either side agree to their truncation error.
  const double h = 1e-4;
  const double below = (at(rc - eps) - at(rc - eps - h)) / h,
               above = (at(rc + eps + h) - at(rc + eps)) / h;
  EXPECT_NEAR(below, above, 1e-3 * std::max(1.0, std::fabs(below)));
  std::printf("across the three-body cutoff: ΔE = %.3g eV, slopes %.6g / %.6g eV/Å\n",
              e_above - e_below, below, above);
}

TEST(DeepPotentialThreeBody, ModelFileKeepsIt) {
  const TestFrame f = diamond_frame(29);
  SeE2aModel m = three_body_model(f);
  const auto path = std::filesystem::temp_directory_path() / "surrox_dp_three_body_model.pt";
  save_model(path, m, nlohmann::json::object());
  nlohmann::json meta;
  SeE2aModel back = load_model(path, &meta);
  std::filesystem::remove(path);
  EXPECT_TRUE(back->config().three_body.enabled());
  EXPECT_EQ(back->config().three_body.sel, m->config().three_body.sel);
  EXPECT_EQ(meta.at("model").at("descriptor"), "hybrid: se_e2_a + se_e3");
  EXPECT_DOUBLE_EQ(energy_of(back, f), energy_of(m, f));
}

// Compression tabulates the three-body nets too (over x in [−X, X]): energies and forces of
// another frame agree with the nets', and a saved compressed model reloads to the same numbers.
TEST(DeepPotentialThreeBody, CompressedMatchesTheNets) {
  const TestFrame f = diamond_frame(31);
  SeE2aModel full = three_body_model(f), compressed = three_body_model(f);
  FrameEnvironment env = build_environment(f.coord.data(), f.box.data(), f.types,
                                           full->config().rcut, full->config().sel);
  SystemData s;
  s.env.push_back(env);
  const double r_min = min_neighbor_distance({s});
  compressed->compress(compressed->table_range(r_min, 0.01, 5));
  compressed->compress_three_body(compressed->three_body_table_range(r_min, 0.01, 5));
  ASSERT_TRUE(compressed->three_body_compressed());
  EXPECT_LT(compressed->three_body_table_params().lower, 0.0);
  const TestFrame g = diamond_frame(32);  // another frame, inside the tables
  const EnvBatch b = batch_of(full->config(), g);
  const Prediction p = predict(full, b), q = predict(compressed, b);
  const double de = (p.energy - q.energy).abs().max().item<double>();
  const double df = (p.force - q.force).abs().max().item<double>();
  std::printf("compressed with se_e3: |ΔE| %.3e eV, max |ΔF| %.3e eV/Å (force scale %.3f)\n", de,
              df, p.force.abs().max().item<double>());
  EXPECT_LT(df, 1e-6);
  EXPECT_LT(de, 1e-8);
  EXPECT_GT(p.force.abs().max().item<double>(), 1e-3);
  EXPECT_EQ(compressed->table_overflow(), 0);
  // The tables are what is evaluated: perturbing one moves the forces (the check can fail).
  SeE2aModel perturbed = three_body_model(f);
  perturbed->compress(compressed->table_params());
  perturbed->compress_three_body(compressed->three_body_table_params());
  {
    torch::NoGradGuard no_grad;
    perturbed->named_buffers()["three_body_table_0_1"].mul_(1.001);
  }
  EXPECT_GT((predict(perturbed, b).force - q.force).abs().max().item<double>(), 1e-7);
  const auto path = std::filesystem::temp_directory_path() / "surrox_dp_three_body_compressed.pt";
  save_model(path, compressed, nlohmann::json::object());
  SeE2aModel back = load_model(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(back->three_body_compressed());
  EXPECT_TRUE(torch::equal(predict(back, b).force, q.force));
  EXPECT_THROW(compressed->compress_three_body(compressed->three_body_table_params()), InputError);
}

// Pairing only the slots in use (the rest are zero rows beyond the three-body rcut) gives the
// descriptor of all the pairs: the skip is exact, and it does skip here.
TEST(DeepPotentialThreeBody, SkippingEmptySlotsChangesNothing) {
  const TestFrame f = diamond_frame(37);
  SeE2aModel m = three_body_model(f);
  const EnvBatch b = batch_of(m->config(), f);
  const torch::Tensor raw = m->three_body_environment(b.rij);
  const std::vector<int>& sel = m->config().three_body.sel;
  const std::vector<int> used = three_body_slots_in_use(raw, sel);
  ASSERT_EQ(used.size(), sel.size());
  for (std::size_t t = 0; t < sel.size(); ++t) {
    EXPECT_GT(used[t], 0);
    EXPECT_LT(used[t], sel[t]);
  }
  torch::NoGradGuard no_grad;
  const torch::Tensor r = (raw - m->davg3[0]) / m->dstd3[0];
  auto embed = [&](int tj, int tk, const torch::Tensor& x) {
    return m->embed_three_body(tj, tk, x);
  };
  const torch::Tensor all = three_body_descriptor(r, sel, sel, embed),
                      skipped = three_body_descriptor(r, sel, used, embed);
  const double diff = (all - skipped).abs().max().item<double>();
  std::printf("three-body slots in use %d, %d of %d, %d: max |ΔD3| %.3g (|D3| up to %.3g)\n",
              used[0], used[1], sel[0], sel[1], diff, all.abs().max().item<double>());
  EXPECT_LT(diff, 1e-14 * std::max(1.0, all.abs().max().item<double>()));
  EXPECT_GT(all.abs().max().item<double>(), 1e-6);
}

TEST(DeepPotentialThreeBody, RefusesSlotsOrCutoffBeyondSeE2a) {
  SeE2aConfig c = three_body_config(2);
  c.three_body.sel = {8, 30};  // more than sel[1] = 24
  EXPECT_THROW(SeE2aModel{c}, InputError);
  c = three_body_config(2);
  c.three_body.sel = {8};  // one entry for two types
  EXPECT_THROW(SeE2aModel{c}, InputError);
  c = three_body_config(2);
  c.three_body.rcut = 4.5;  // beyond se_e2_a's 4.0
  EXPECT_THROW(SeE2aModel{c}, InputError);
  c = three_body_config(2);
  c.three_body.rcut_smth = 3.3;  // above its rcut 3.2
  EXPECT_THROW(SeE2aModel{c}, InputError);
}

}  // namespace
}  // namespace surrox::surrogates::deep_potential
