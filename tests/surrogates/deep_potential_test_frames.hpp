#pragma once
// Frames and helpers shared by the deep-potential model tests (unity build: one definition).
#include <gtest/gtest.h>

#include <random>
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

}  // namespace surrox::surrogates::deep_potential::test_frames
