#pragma once
// For the `pair: {type: deep}` tests: untrained se_e2_a models, optionally with the se_e3
// three-body part (random weights from `seed`,
// statistics from a perturbed diamond crystal, so davg and dstd are not trivial) saved as
// model.pt (float64, or float32 nets), and the MD case text that runs them.
#include <cmath>
#include <string>
#include <vector>

#include "families/builtin_families.hpp"
#include "md/md_test_support.hpp"
#include "surrogates/deep_potential/model_file.hpp"

namespace surrox::couplers::dp_pair_test {
namespace dp = surrogates::deep_potential;
namespace md = solvers::md;

inline dp::SeE2aConfig pair_test_config(long seed, bool three_body = false) {
  dp::SeE2aConfig c;
  if (three_body) {
    c.three_body.rcut = 3.6;
    c.three_body.rcut_smth = 2.5;
    c.three_body.sel = {12};
    c.three_body.embedding = {4, 8};
  }
  c.rcut = 4.0;
  c.rcut_smth = 3.0;
  c.sel = {28};
  c.embedding = {8, 16};
  c.axis_neuron = 4;
  c.fitting = {16, 16};
  c.seed = seed;
  return c;
}

// Writes the model to `path` (call on one rank).
inline void write_pair_test_model(const std::string& path, long seed, bool three_body = false,
                                  const std::string& precision = "float64") {
  surrox::families::register_builtin_families();
  dp::SeE2aConfig c = pair_test_config(seed, three_body);
  c.precision = precision;
  dp::SeE2aModel m(c);
  const double a = 5.431;
  const double basis[8][3] = {{0, 0, 0},       {0, .5, .5},     {.5, 0, .5},     {.5, .5, 0},
                              {.25, .25, .25}, {.25, .75, .75}, {.75, .25, .75}, {.75, .75, .25}};
  std::vector<double> coord, box = {2 * a, 0, 0, 0, 2 * a, 0, 0, 0, 2 * a};
  long i = 0;
  for (int x = 0; x < 2; ++x)
    for (int y = 0; y < 2; ++y)
      for (int z = 0; z < 2; ++z)
        for (const auto& b : basis) {
          const int cell[3] = {x, y, z};
          for (int d = 0; d < 3; ++d)
            coord.push_back((cell[d] + b[d]) * a + 0.1 * std::sin(3.0 * i + d));
          ++i;
        }
  const std::vector<int> types(i, 0);
  m->compute_statistics({dp::make_batch(
      {dp::build_environment(coord.data(), box.data(), types, c.rcut, c.sel)}, types, 1)});
  m->bias.fill_(-4.3);
  dp::save_model(path, m);
}

// Diamond silicon, replicate³ cells, 600 K, NVE with 0.5 fs steps; `pair` is the pair section's
// body after `type: deep, `.
inline std::string pair_test_case(const std::string& pair, long steps, int replicate = 2,
                                  int thermo = 10) {
  const std::string r = std::to_string(replicate);
  return "units: metal, lattice: {style: diamond, constant: 5.431, replicate: [" + r + ", " + r +
         ", " + r + "], mass: 28.06}, velocity: {temperature: 600, seed: 5}, dt: 0.0005, thermo: " +
         std::to_string(thermo) + ", steps: " + std::to_string(steps) +
         ", neighbor: {skin: 1.0}, pair: {type: deep, " + pair + "}";
}

}  // namespace surrox::couplers::dp_pair_test
