// ctest-labels: unit
// ctest-libraries: surrox_deep_potential
// ctest-pch: torch
// The se_e2_a deep potential (untrained, random weights, statistics from the frame, two
// atom types): forces equal −dE/dx by central differences; the virial equals the strain
// derivative of the energy; the energy is invariant under rotation (of atoms and box),
// translation and permutation of same-type atoms; energy and force are continuous as a
// neighbour crosses rcut; the per-type energy bias is the least-squares solution; more
// neighbours than `sel` warn with the counts; the weights' seed leaves torch's global one alone.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "surrogates/deep_potential/environment.hpp"
#include "surrogates/deep_potential/se_e2_a.hpp"
#include "surrogates/deep_potential/training_data.hpp"
#include "tests/deep_potential/deep_potential_test_frames.hpp"

namespace surrox::surrogates::deep_potential {
namespace {

using namespace test_frames;

SeE2aModel make_model(const TestFrame& f) {
  return model_with_statistics(small_config(), f, {-4.3, -3.9});
}

TEST(DeepPotentialModel, ForcesAreMinusTheEnergyGradient) {
  const TestFrame f = diamond_frame(11);
  SeE2aModel m = make_model(f);
  EXPECT_GT(m->davg[0][0].item<double>(), 0.0);  // statistics from the frame
  const Prediction p = predict(m, batch_of(m->config(), f));
  EXPECT_NEAR(p.energy.item<double>(), energy_of(m, f), 1e-12 * std::fabs(energy_of(m, f)));
  const auto [worst, largest] = force_error(m, f);
  EXPECT_GT(largest, 1e-3);
  EXPECT_LT(worst / largest, 1e-6) << worst << " of " << largest;
  std::printf("forces vs finite differences: max |ΔF| / max |F| = %.3g\n", worst / largest);
  // Newton's third law as a whole: no net force on a periodic system.
  EXPECT_LT(p.force.sum(torch::IntArrayRef{0, 1}).abs().max().template item<double>(),
            1e-10 * largest);
}

TEST(DeepPotentialModel, VirialIsTheStrainDerivative) {
  const TestFrame f = diamond_frame(12);
  SeE2aModel m = make_model(f);
  const auto [worst, largest] = virial_error(m, f);
  EXPECT_GT(largest, 1e-3);
  EXPECT_LT(worst / largest, 1e-6) << worst << " of " << largest;
  std::printf("virial vs strain derivative: max |ΔW| / max |W| = %.3g\n", worst / largest);
}

TEST(DeepPotentialModel, EnergyIsInvariantUnderRotationTranslationPermutation) {
  const TestFrame f = diamond_frame(13);
  SeE2aModel m = make_model(f);
  const double e = energy_of(m, f);
  // Rotation of atoms and box (the box becomes triclinic in the lab frame).
  const double al = 0.3, be = -1.1, ga = 2.0;
  const double rz[9] = {std::cos(al), -std::sin(al), 0, std::sin(al), std::cos(al), 0, 0, 0, 1};
  const double ry[9] = {std::cos(be), 0, std::sin(be), 0, 1, 0, -std::sin(be), 0, std::cos(be)};
  const double rx[9] = {1, 0, 0, 0, std::cos(ga), -std::sin(ga), 0, std::sin(ga), std::cos(ga)};
  auto mul = [](const double* p, const double* q) {
    std::vector<double> r(9, 0);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) r[3 * i + j] += p[3 * i + k] * q[3 * k + j];
    return r;
  };
  const std::vector<double> q = mul(mul(rz, ry).data(), rx);
  auto rotate = [&](std::vector<double>& v) {
    for (std::size_t i = 0; i < v.size(); i += 3) {
      const double x[3] = {v[i], v[i + 1], v[i + 2]};
      for (int a = 0; a < 3; ++a)
        v[i + a] = q[3 * a] * x[0] + q[3 * a + 1] * x[1] + q[3 * a + 2] * x[2];
    }
  };
  TestFrame rotated = f;
  rotate(rotated.coord);
  rotate(rotated.box);
  EXPECT_NEAR(energy_of(m, rotated), e, 1e-10 * std::fabs(e));
  // Atoms rotated in an unrotated box are another configuration: the test can fail.
  TestFrame atoms_only = f;
  rotate(atoms_only.coord);
  EXPECT_GT(std::fabs(energy_of(m, atoms_only) - e), 1e-3);
  TestFrame moved = f;
  for (std::size_t i = 0; i < moved.coord.size(); i += 3) {
    moved.coord[i] += 13.7;  // more than a box length: wrapped back
    moved.coord[i + 1] -= 2.1;
    moved.coord[i + 2] += 0.35;
  }
  EXPECT_NEAR(energy_of(m, moved), e, 1e-10 * std::fabs(e));
  // Permutation: reverse the atom order (types follow their atoms).
  const TestFrame permuted = reversed(f);
  EXPECT_NEAR(energy_of(m, permuted), e, 1e-10 * std::fabs(e));
  std::printf("relative energy change: rotation %.3g, translation %.3g, permutation %.3g\n",
              std::fabs(energy_of(m, rotated) / e - 1), std::fabs(energy_of(m, moved) / e - 1),
              std::fabs(energy_of(m, permuted) / e - 1));
  // Changing a type changes the energy: the test can see a type mix-up.
  TestFrame other = f;
  other.types[0] = 1 - other.types[0];
  EXPECT_GT(std::fabs(energy_of(m, other) - e), 1e-6);
}

TEST(DeepPotentialModel, SmoothAcrossTheCutoff) {
  const TestFrame f = diamond_frame(14);
  SeE2aModel m = make_model(f);
  // A dimer in a large box, the second atom crossing rcut = 4 along x.
  auto dimer = [&](double r) {
    TestFrame d;
    d.box = {20, 0, 0, 0, 20, 0, 0, 0, 20};
    d.coord = {5, 5, 5, 5 + r, 5, 5};
    d.types = {0, 1};
    return d;
  };
  auto eval = [&](double r) {
    const TestFrame d = dimer(r);
    const Prediction p = predict(m, batch_of(m->config(), d));
    return std::make_pair(p.energy.item<double>(), p.force[0][1][0].item<double>());
  };
  const double rc = 4.0, delta = 1e-6;
  const auto inside = eval(rc - delta), outside = eval(rc + delta), near = eval(rc - 0.3);
  EXPECT_EQ(outside.second, 0.0);
  EXPECT_LT(std::fabs(inside.first - outside.first), 1e-12 * std::fabs(outside.first));
  EXPECT_LT(std::fabs(inside.second), 1e-9);
  std::printf("across rcut (±1e-6 Å): |ΔE| = %.3g eV, |F| inside = %.3g eV/Å\n",
              std::fabs(inside.first - outside.first), std::fabs(inside.second));
  // The pair does interact closer in: the test would see a discontinuity.
  EXPECT_GT(std::fabs(near.first - outside.first), 1e-6);
  EXPECT_GT(std::fabs(near.second), 1e-5);
  // And through the switching region the energy changes by no more than |F| allows.
  double previous = eval(rc - 1.2).first;
  for (int k = 1; k <= 130; ++k) {
    const double r = rc - 1.2 + 0.01 * k;
    const auto now = eval(r);
    EXPECT_LT(std::fabs(now.first - previous), 0.01 * (std::fabs(now.second) + 1e-3) * 2) << r;
    previous = now.first;
  }
}

TEST(DeepPotentialModel, EnergyBiasIsTheLeastSquaresSolution) {
  SeE2aModel m(small_config());
  m->fit_energy_bias({{10, 5}, {3, 8}, {6, 6}, {1, 0}},
                     {10 * -4.5 + 5 * -3.25, 3 * -4.5 + 8 * -3.25, 6 * -4.5 + 6 * -3.25, -4.5});
  EXPECT_NEAR(m->bias[0].item<double>(), -4.5, 1e-12);
  EXPECT_NEAR(m->bias[1].item<double>(), -3.25, 1e-12);
}

TEST(DeepPotentialModel, SelOverflowWarnsWithTheCounts) {
  const TestFrame f = diamond_frame(15);
  const std::vector<int> all_one_type(f.types.size(), 0);
  const FrameEnvironment env =
      build_environment(f.coord.data(), f.box.data(), all_one_type, 4.0, {10});
  EXPECT_GE(env.most_found[0], 14);  // 4 first and 12 second neighbours at 2.35 and 3.84 Å
  EXPECT_LE(env.most_found[0], 20);
  for (long i = 0; i < env.atoms; ++i)
    for (long k = 0; k < env.slots; ++k) ASSERT_GE(env.neighbor[i * env.slots + k], 0);
  EXPECT_TRUE(warn_if_sel_overflows(env.most_found, {10}, {"Si"}, "test frame"));
  EXPECT_FALSE(warn_if_sel_overflows(env.most_found, {32}, {"Si"}, "test frame"));
  // rcut beyond half the box: more images, same answer as a doubled box with half the sel.
  const FrameEnvironment far =
      build_environment(f.coord.data(), f.box.data(), all_one_type, 6.0, {80});
  EXPECT_GT(far.most_found[0], 40);
}

// The weights come from a generator of the model's own, seeded from config.seed: building a
// model leaves torch's global random state alone, equal seeds give equal weights.
TEST(DeepPotentialModel, SeedsItsOwnGeneratorNotTorchs) {
  torch::manual_seed(11);
  const torch::Tensor expected = torch::rand({4}, torch::kFloat64);
  torch::manual_seed(11);
  SeE2aModel a(small_config());
  EXPECT_TRUE(torch::equal(torch::rand({4}, torch::kFloat64), expected));
  SeE2aModel b(small_config());
  SeE2aConfig other = small_config();
  other.seed = 4;
  SeE2aModel c(other);
  const auto pa = a->parameters(), pb = b->parameters(), pc = c->parameters();
  ASSERT_EQ(pa.size(), pc.size());
  bool all_equal = true, any_differs = false;
  for (std::size_t i = 0; i < pa.size(); ++i) {
    all_equal = all_equal && torch::equal(pa[i], pb[i]);
    any_differs = any_differs || !torch::equal(pa[i], pc[i]);
  }
  EXPECT_TRUE(all_equal);
  EXPECT_TRUE(any_differs);
}

// Training's path: the environment matrix and ∂R/∂r_ij computed once (precompute_environment)
// give the on-the-fly model's energy, forces, virial, force-loss and weight gradients (through
// the double backward) to round-off; frames gathered out of order by batch_frames too.
TEST(DeepPotentialModel, PrecomputedEnvironmentEqualsOnTheFly) {
  const TestFrame f = diamond_frame(21);
  SeE2aModel m = make_model(f);
  const EnvBatch fly = batch_of(m->config(), f);
  EnvBatch pre = fly;
  precompute_environment(pre, m->config().rcut_smth, m->config().rcut);
  const PrecomputeRun a = precompute_run(m, fly), b = precompute_run(m, pre);
  expect_same_run(a, b);
  // The check can fail: a derivative off by 0.1 % changes the forces well beyond round-off.
  EnvBatch off = pre;
  off.env_deriv = pre.env_deriv * 1.001;
  EXPECT_GT(max_relative(predict(m, off).force, a.p.force), 1e-5);

  // batch_frames: frames 2 and 0 of a three-frame system, gathered out of order.
  SystemData s;
  s.types = f.types;
  s.frames.types = f.types;
  s.frames.frames = 3;
  for (unsigned seed : {31u, 32u, 33u}) {
    const TestFrame g = diamond_frame(seed);
    s.frames.coord.insert(s.frames.coord.end(), g.coord.begin(), g.coord.end());
    s.frames.box.insert(s.frames.box.end(), f.box.begin(), f.box.end());
    s.env.push_back(build_environment(g.coord.data(), f.box.data(), f.types, m->config().rcut,
                                      m->config().sel));
  }
  const EnvBatch plain = batch_frames(s, {2, 0}, 2);
  precompute_environments(s, m->config());
  const EnvBatch gathered = batch_frames(s, {2, 0}, 2);
  ASSERT_TRUE(gathered.env.defined());
  const PrecomputeRun c = precompute_run(m, plain), d = precompute_run(m, gathered);
  EXPECT_LT(max_relative(d.p.energy, c.p.energy), 1e-12);
  EXPECT_LT(max_relative(d.p.force, c.p.force), 1e-12);
  EXPECT_NEAR(d.loss, c.loss, 1e-12 * c.loss);
}

// What se_e2_a cannot see (why Stillinger–Weber's three-body term is hard for it, see
// docs/validation/deep_potential.md): its descriptor is built from Σ_j G(s_j)·s_j·(1, r̂_j), so
// four equal bonds in a tetrahedron and in a square (both with Σ_j r̂_j = 0) give the centre
// the same descriptor and the same atomic energy, where SW's (cos θ + 1/3)² term differs.
TEST(DeepPotentialModel, TetrahedralAndSquarePlanarCentresLookTheSame) {
  const TestFrame f = diamond_frame(5);
  const SeE2aConfig c = small_config(1);
  SeE2aModel m(c);
  m->compute_statistics({batch_of(c, {f.coord, f.box, std::vector<int>(64, 0)})});
  const double b = 2.35, o = 10.0;
  // A tilted square: one bond bent 20° out of the plane breaks Σ r̂ = 0 (the check can fail).
  std::vector<double> bent = square_centre(b, o);
  bent[3] = o + b * std::cos(0.35);
  bent[5] = o + b * std::sin(0.35);
  const double et = centre_energy(m, tetrahedral_centre(b, o)),
               es = centre_energy(m, square_centre(b, o)), eb = centre_energy(m, bent);
  EXPECT_NEAR(et, es, 1e-12 * std::fabs(et));
  EXPECT_GT(std::fabs(eb - es), 1e-6 * std::fabs(es));
  std::printf("centre energy: tetrahedral %.15g, square %.15g, bent %.15g\n", et, es, eb);
}

}  // namespace
}  // namespace surrox::surrogates::deep_potential
