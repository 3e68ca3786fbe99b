#pragma once
// Frames and helpers shared by the deep-potential model tests (unity build: one definition).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "surrogates/deep_potential/environment.hpp"
#include "surrogates/deep_potential/se_e2_a.hpp"

namespace surrox::surrogates::deep_potential::test_frames {

struct TestFrame {
  std::vector<double> coord, box;
  std::vector<int> types;
};

// Diamond silicon, 2×2×2 cells (64 atoms), displaced at random, two types at random.
inline TestFrame diamond_frame(unsigned seed) {
  const double a = 5.431;
  const double basis[8][3] = {{0, 0, 0},       {0, .5, .5},     {.5, 0, .5},     {.5, .5, 0},
                              {.25, .25, .25}, {.25, .75, .75}, {.75, .25, .75}, {.75, .75, .25}};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.15, 0.15);
  TestFrame f;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 2; ++k)
        for (const auto& b : basis) {
          f.coord.push_back((i + b[0]) * a + jitter(rng));
          f.coord.push_back((j + b[1]) * a + jitter(rng));
          f.coord.push_back((k + b[2]) * a + jitter(rng));
          f.types.push_back(static_cast<int>(rng() % 2));
        }
  f.box = {2 * a, 0, 0, 0, 2 * a, 0, 0, 0, 2 * a};
  return f;
}

// The tests' small model: Si (and Ge for two types), rcut 4.0 / rcut_smth 3.0, 24 slots per
// type, embedding [8, 16], axis_neuron 4, fitting [16, 16].
inline SeE2aConfig small_config(int ntypes = 2, long seed = 3) {
  SeE2aConfig c;
  c.type_map = ntypes == 2 ? std::vector<std::string>{"Si", "Ge"} : std::vector<std::string>{"Si"};
  c.rcut = 4.0;
  c.rcut_smth = 3.0;
  c.sel = std::vector<int>(ntypes, 24);
  c.embedding = {8, 16};
  c.axis_neuron = 4;
  c.fitting = {16, 16};
  c.seed = seed;
  return c;
}

inline EnvBatch batch_of(const SeE2aConfig& c, const TestFrame& f) {
  const FrameEnvironment env =
      build_environment(f.coord.data(), f.box.data(), f.types, c.rcut, c.sel);
  return make_batch({env}, f.types, c.ntypes());
}

inline double energy_of(SeE2aModel& m, const TestFrame& f) {
  torch::NoGradGuard no_grad;
  const EnvBatch b = batch_of(m->config(), f);
  return m->atomic_energy(b.rij, b).sum().item<double>();
}

// A model of `c` with its statistics from `f` and the per-type energy bias `bias`.
inline SeE2aModel model_with_statistics(const SeE2aConfig& c, const TestFrame& f,
                                        const std::vector<double>& bias) {
  SeE2aModel m(c);
  m->compute_statistics({batch_of(c, f)});
  m->bias.copy_(torch::tensor(bias, torch::kFloat64));
  return m;
}

// One prediction with the forces' graph, a loss of energy, forces and virial, and the weight
// gradients through the double backward: what a training step computes.
struct PrecomputeRun {
  Prediction p;
  double loss = 0;
  std::vector<torch::Tensor> grads;
};

inline PrecomputeRun precompute_run(SeE2aModel& m, const EnvBatch& b) {
  for (auto& w : m->parameters()) w.mutable_grad() = torch::Tensor();
  PrecomputeRun r;
  r.p = predict(m, b, true);
  const torch::Tensor loss = 0.02 * (r.p.energy + 270.0).pow(2).sum() / b.atoms +
                             1000.0 * (r.p.force - 0.1).pow(2).mean() +
                             0.5 * (r.p.virial - 1.0).pow(2).mean();
  loss.backward();
  r.loss = loss.item<double>();
  for (auto& w : m->parameters()) r.grads.push_back(w.grad().clone());
  return r;
}

inline double max_relative(const torch::Tensor& a, const torch::Tensor& b) {
  return (a - b).abs().max().item<double>() / b.abs().max().item<double>();
}

// Training's precomputed path (b) against the on-the-fly one (a): energy, forces, virial, loss
// and every weight gradient to round-off.
inline void expect_same_run(const PrecomputeRun& a, const PrecomputeRun& b) {
  EXPECT_LT(max_relative(b.p.energy, a.p.energy), 1e-12);
  EXPECT_LT(max_relative(b.p.force, a.p.force), 1e-12);
  EXPECT_LT(max_relative(b.p.virial, a.p.virial), 1e-12);
  EXPECT_NEAR(b.loss, a.loss, 1e-12 * a.loss);
  double worst = 0;
  for (std::size_t k = 0; k < a.grads.size(); ++k)
    worst = std::max(worst, max_relative(b.grads[k], a.grads[k]));
  EXPECT_LT(worst, 1e-10);
  std::printf(
      "precomputed vs on the fly: |Δloss|/loss = %.3g, max weight-gradient difference %.3g\n",
      std::fabs(b.loss - a.loss) / a.loss, worst);
}

// The same frame with its atoms listed in reverse order (types follow their atoms).
inline TestFrame reversed(const TestFrame& f) {
  TestFrame r = f;
  const std::size_t n = f.types.size();
  for (std::size_t i = 0; i < n; ++i) {
    r.types[i] = f.types[n - 1 - i];
    for (int d = 0; d < 3; ++d) r.coord[3 * i + d] = f.coord[3 * (n - 1 - i) + d];
  }
  return r;
}

// The energy is unchanged when atoms and box rotate together (about z by `angle`) and when the
// atoms are listed in reverse order; rotating the atoms alone is another configuration, whose
// energy differs (so the check can fail).
inline void expect_rotation_and_permutation_invariance(SeE2aModel& m, const TestFrame& f,
                                                       double angle) {
  const double e = energy_of(m, f), c = std::cos(angle), s = std::sin(angle);
  auto rotate = [&](std::vector<double>& v) {
    for (std::size_t i = 0; i < v.size(); i += 3) {
      const double x = v[i], y = v[i + 1];
      v[i] = c * x - s * y;
      v[i + 1] = s * x + c * y;
    }
  };
  TestFrame rotated = f;
  rotate(rotated.coord);
  rotate(rotated.box);
  EXPECT_NEAR(energy_of(m, rotated), e, 1e-10 * std::fabs(e));
  EXPECT_NEAR(energy_of(m, reversed(f)), e, 1e-10 * std::fabs(e));
  TestFrame atoms_only = f;
  rotate(atoms_only.coord);
  EXPECT_GT(std::fabs(energy_of(m, atoms_only) - e), 1e-4);
}

// Largest |F − (−dE/dx)| over a few atoms (central differences, h = 1e-4 Å) and the largest
// |F| among them: forces are the energy's gradient when the first is far below the second.
inline std::pair<double, double> force_error(SeE2aModel& m, const TestFrame& f) {
  const Prediction p = predict(m, batch_of(m->config(), f));
  const auto force = p.force.accessor<double, 3>();
  const double h = 1e-4;
  double worst = 0, largest = 0;
  for (int i : {0, 9, 33, 63})
    for (int d = 0; d < 3; ++d) {
      TestFrame plus = f, minus = f;
      plus.coord[3 * i + d] += h;
      minus.coord[3 * i + d] -= h;
      const double fd = -(energy_of(m, plus) - energy_of(m, minus)) / (2 * h);
      worst = std::max(worst, std::fabs(fd - force[0][i][d]));
      largest = std::max(largest, std::fabs(force[0][i][d]));
    }
  return {worst, largest};
}

// The same for the virial against the strain derivative of the energy (h = 1e-5).
inline std::pair<double, double> virial_error(SeE2aModel& m, const TestFrame& f) {
  const Prediction p = predict(m, batch_of(m->config(), f));
  const auto w = p.virial.accessor<double, 2>();
  double worst = 0, largest = 0;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) {
      // x'_c = x_c + ε δ_ca x_b on atoms and lattice vectors: dE/dε = −W_ba.
      auto strained = [&](double eps) {
        TestFrame s = f;
        for (std::size_t i = 0; i < s.coord.size() / 3; ++i)
          s.coord[3 * i + a] += eps * f.coord[3 * i + b];
        for (int k = 0; k < 3; ++k) s.box[3 * k + a] += eps * f.box[3 * k + b];
        return s;
      };
      const double fd = (energy_of(m, strained(1e-5)) - energy_of(m, strained(-1e-5))) / 2e-5;
      worst = std::max(worst, std::fabs(-fd - w[0][3 * b + a]));
      largest = std::max(largest, std::fabs(w[0][3 * b + a]));
    }
  return {worst, largest};
}

// Forces and virial of `m` on `f` are the derivatives of its energy (force_error,
// virial_error: within 1e-6 of the largest value, which is not small); prints both under `what`.
inline void expect_forces_and_virial_are_derivatives(SeE2aModel& m, const TestFrame& f,
                                                     const char* what) {
  const auto [worst, largest] = force_error(m, f);
  EXPECT_GT(largest, 1e-3);
  EXPECT_LT(worst / largest, 1e-6) << worst << " of " << largest;
  const auto [worst_w, largest_w] = virial_error(m, f);
  EXPECT_LT(worst_w / largest_w, 1e-6) << worst_w << " of " << largest_w;
  std::printf("%s: max |ΔF|/max|F| = %.3g, max |ΔW|/max|W| = %.3g\n", what, worst / largest,
              worst_w / largest_w);
}

// The atomic energy of atom 0 of a five-atom cluster (a centre and four neighbours) in a box
// too big for images: for comparing coordination shapes.
inline double centre_energy(SeE2aModel& m, const std::vector<double>& coord) {
  torch::NoGradGuard no_grad;
  const TestFrame g{coord, {20, 0, 0, 0, 20, 0, 0, 0, 20}, std::vector<int>(5, 0)};
  const EnvBatch e = batch_of(m->config(), g);
  return m->atomic_energy(e.rij, e)[0].item<double>();
}

// A centre with four bonds of length b in a tetrahedron and in a square, at (o, o, o).
inline std::vector<double> tetrahedral_centre(double b = 2.35, double o = 10.0) {
  const double t = b / std::sqrt(3.0);
  return {o,     o,     o,     o + t, o + t, o + t, o + t, o - t,
          o - t, o - t, o + t, o - t, o - t, o - t, o + t};
}
inline std::vector<double> square_centre(double b = 2.35, double o = 10.0) {
  return {o, o, o, o + b, o, o, o - b, o, o, o, o + b, o, o, o - b, o};
}

}  // namespace surrox::surrogates::deep_potential::test_frames
