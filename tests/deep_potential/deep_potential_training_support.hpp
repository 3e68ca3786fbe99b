#pragma once
// For the deep_potential family's training tests: a small DeePMD npy system (8-atom diamond
// silicon cells, displaced at random, with smooth made-up labels) and one call of the family's
// train() with a tiny se_e2_a model.
#include <mpi.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "io/case_file.hpp"
#include "io/deepmd_system.hpp"
#include "support/test_paths.hpp"
#include "training/deep_potential/deep_potential_family.hpp"
#include "training/surrogate_family.hpp"

namespace surrox::training::dp_test {

// Frames of 8 atoms in a 5.431 Å cube; E = Σ|u|², F = −2u (u: displacement), virial Σ x ⊗ f.
inline std::filesystem::path write_dp_frames(const std::filesystem::path& dir, long frames,
                                             unsigned seed) {
  const double a = 5.431;
  const double basis[8][3] = {{0, 0, 0},       {0, .5, .5},     {.5, 0, .5},     {.5, .5, 0},
                              {.25, .25, .25}, {.25, .75, .75}, {.75, .25, .75}, {.75, .75, .25}};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.2, 0.2);
  io::DeepmdFrames f;
  f.type_map = {"Si"};
  f.types.assign(8, 0);
  f.frames = frames;
  for (long k = 0; k < frames; ++k) {
    double e = 0;
    std::vector<double> w(9, 0.0);
    for (const auto& b : basis) {
      double x[3], u[3];
      for (int d = 0; d < 3; ++d) {
        u[d] = jitter(rng);
        x[d] = b[d] * a + u[d];
        f.coord.push_back(x[d]);
        f.force.push_back(-2 * u[d]);
        e += u[d] * u[d];
      }
      for (int p = 0; p < 3; ++p)
        for (int q = 0; q < 3; ++q) w[3 * p + q] += x[p] * (-2 * u[q]);
    }
    f.energy.push_back(-4.3 * 8 + e);
    f.virial.insert(f.virial.end(), w.begin(), w.end());
    for (int d = 0; d < 9; ++d) f.box.push_back(d % 4 == 0 ? a : 0.0);
  }
  io::write_deepmd_system(dir, f, 10);
  return dir;
}

inline std::string dp_config_text(const std::filesystem::path& train,
                                  const std::filesystem::path& validation) {
  return "family: deep_potential\n"
         "data: {train: ['" +
         train.string() + "'], validation: ['" + validation.string() +
         "'], stat_frames: 8}\n"
         "model: {rcut: 4.0, rcut_smth: 3.0, sel: [24], embedding: [4, 8], axis_neuron: 4, "
         "fitting: [8, 8], seed: 2}\n"
         "training: {steps: 20, batch_size: 2, decay_steps: 5, stop_lr: 1e-4, "
         "optimizer: {type: adam, lr: 0.005}, disp_freq: 5, validation_frames: 4, seed: 7, "
         "save_freq: 7, loss: {start_pref_v: 0.02, limit_pref_v: 0.5}}\n";
}

// Trains; the results as train() leaves them.
inline nlohmann::json dp_train(const std::string& text, const std::filesystem::path& out,
                               const std::vector<std::string>& overrides = {},
                               std::optional<std::filesystem::path> resume = std::nullopt,
                               long max_steps = 0) {
  // The training layer's entry alone (families/deep_potential.cpp registers it with the rest).
  if (!surrogate_families().contains("deep_potential"))
    surrogate_family_registry().add("deep_potential", deep_potential_family_entry());
  const io::CaseFile config =
      io::load_case_text(text, "dp.yaml", train_config_schema("deep_potential"), overrides);
  const TrainRequest request{config, surrox::testing::runtime(), out, resume, max_steps, "dp.yaml"};
  nlohmann::json results;
  surrogate_families().create("deep_potential")->train(request, results);
  return results;
}

}  // namespace surrox::training::dp_test
