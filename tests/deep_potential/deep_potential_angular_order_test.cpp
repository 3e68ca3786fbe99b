// ctest-labels: unit
// ctest-libraries: surrox_deep_potential
// ctest-pch: torch
// se_e2_a with angular_order 2 (the l = 2 moments beside DeePMD-kit's l ≤ 1; untrained, random
// weights, statistics from the frame, two atom types): the environment's l = 2 columns have
// the dot product s_j s_k ((r̂_j·r̂_k)² − 1/3); the tetrahedral and square centres differ;
// forces and virial are derivatives; rotation and permutation leave the energy alone;
// training's precomputed path equals the on-the-fly one with weight gradients; a model file
// keeps the order; angular_order 1 is the plain model.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "core/error.hpp"
#include "surrogates/deep_potential/model_file.hpp"
#include "tests/deep_potential/deep_potential_test_frames.hpp"

namespace surrox::surrogates::deep_potential {
namespace {

using namespace test_frames;

SeE2aConfig quadrupole_config(int ntypes) {
  SeE2aConfig c = small_config(ntypes, 5);
  c.angular_order = 2;
  return c;
}

SeE2aModel quadrupole_model(const TestFrame& f, int ntypes = 2) {
  return model_with_statistics(quadrupole_config(ntypes), f, std::vector<double>(ntypes, -4.2));
}

TEST(DeepPotentialAngularOrder, QuadrupoleColumnsGiveCosineSquared) {
  const auto rij = torch::tensor({{{1.1, -0.4, 2.0}, {-0.7, 1.9, 0.3}}}, torch::kFloat64);
  const torch::Tensor env = environment_matrix(rij, 3.0, 4.0, 2);
  ASSERT_EQ(env.size(-1), 10);
  const torch::Tensor s = env.select(-1, 0)[0];
  const torch::Tensor n = rij[0] / rij[0].norm(2, -1, true);
  const double cos_jk = (n[0] * n[1]).sum().item<double>();
  const double dot = (env[0][0].narrow(0, 4, 6) * env[0][1].narrow(0, 4, 6)).sum().item<double>();
  const double expected = s[0].item<double>() * s[1].item<double>() * (cos_jk * cos_jk - 1.0 / 3);
  EXPECT_NEAR(dot, expected, 1e-14);
  // Traceless: the three diagonal components sum to zero.
  EXPECT_NEAR(env[0][0].narrow(0, 4, 3).sum().item<double>(), 0.0, 1e-15);
  // Order 1 is DeePMD-kit's four columns, equal to the first four here.
  const torch::Tensor plain = environment_matrix(rij, 3.0, 4.0);
  ASSERT_EQ(plain.size(-1), 4);
  EXPECT_TRUE(torch::equal(plain, env.narrow(-1, 0, 4)));
}

TEST(DeepPotentialAngularOrder, TellsTetrahedralFromSquarePlanarCentres) {
  TestFrame f = diamond_frame(5);
  f.types.assign(64, 0);
  SeE2aModel m = quadrupole_model(f, 1);
  EXPECT_EQ(m->dstd.size(1), 10);
  EXPECT_GT(m->dstd[0][4].item<double>(), 0.01);
  const double et = centre_energy(m, tetrahedral_centre()), es = centre_energy(m, square_centre());
  EXPECT_GT(std::fabs(et - es), 1e-4 * std::fabs(es));
  std::printf("centre energy with l = 2: tetrahedral %.12g, square %.12g\n", et, es);
}

TEST(DeepPotentialAngularOrder, ForcesAndVirialAreDerivatives) {
  const TestFrame f = diamond_frame(37);
  SeE2aModel m = quadrupole_model(f);
  expect_forces_and_virial_are_derivatives(m, f, "with l = 2");
}

TEST(DeepPotentialAngularOrder, InvariantUnderRotationAndPermutation) {
  const TestFrame f = diamond_frame(41);
  SeE2aModel m = quadrupole_model(f);
  expect_rotation_and_permutation_invariance(m, f, -1.3);
}

TEST(DeepPotentialAngularOrder, PrecomputedEqualsOnTheFly) {
  const TestFrame f = diamond_frame(43);
  SeE2aModel m = quadrupole_model(f);
  const EnvBatch fly = batch_of(m->config(), f);
  EnvBatch pre = fly;
  precompute_environment(pre, m->config());
  ASSERT_EQ(pre.env.size(-1), 10);
  const PrecomputeRun a = precompute_run(m, fly), b = precompute_run(m, pre);
  expect_same_run(a, b);
  // The l = 2 columns' derivative is used (the check can fail).
  EnvBatch off = pre;
  off.env_deriv = pre.env_deriv.clone();
  off.env_deriv.narrow(2, 4, 6).mul_(1.01);
  EXPECT_GT(max_relative(predict(m, off).force, a.p.force), 1e-6);
}

TEST(DeepPotentialAngularOrder, ModelFileKeepsTheOrder) {
  const TestFrame f = diamond_frame(47);
  SeE2aModel m = quadrupole_model(f);
  const auto path = std::filesystem::temp_directory_path() / "surrox_dp_angular_order_model.pt";
  save_model(path, m, nlohmann::json::object());
  SeE2aModel back = load_model(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back->config().angular_order, 2);
  EXPECT_DOUBLE_EQ(energy_of(back, f), energy_of(m, f));
  SeE2aConfig bad = quadrupole_config(2);
  bad.angular_order = 3;
  EXPECT_THROW(SeE2aModel{bad}, InputError);
}

}  // namespace
}  // namespace surrox::surrogates::deep_potential
