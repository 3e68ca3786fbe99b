#pragma once
// What the `surrox train` tests of the super_resolution family share (sr_train_test.cpp on one
// rank, sr_train_ranks_test.cpp on two): a training config over two tiny Rayleigh–Bénard runs and
// readers of what a training run writes.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "super_resolution/tiny_rb.hpp"

namespace surrox::testing {

inline std::string sr_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The two loss columns after the epoch (train, validation) of every row of a metrics.csv.
inline std::vector<double> sr_loss_columns(const std::filesystem::path& metrics) {
  std::vector<double> values;
  std::istringstream in(sr_text(metrics));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string cell;
    std::getline(row, cell, ',');
    for (int c = 0; c < 2 && std::getline(row, cell, ','); ++c) values.push_back(std::stod(cell));
  }
  return values;
}

inline nlohmann::json sr_results(const std::filesystem::path& dir) {
  return nlohmann::json::parse(sr_text(dir / "summary.json")).at("results");
}

// A training config over the seed-42 run, validated on the seed-7 run (both made here, by
// `surrox run` in a child process, on first use).
inline std::filesystem::path sr_config(const std::filesystem::path& dir, const std::string& name,
                                       const std::string& extra = "") {
  const std::filesystem::path path = dir / (name + ".yaml");
  std::ofstream(path) << "family: super_resolution\n"
                         "data:\n"
                         "  train: ["
                      << tiny_rb_run().string() << "]\n  validation: ["
                      << tiny_rb_run("--set solver.seed=7").string()
                      << "]\n"
                         "  downsampling: {t: 2, z: 4, x: 4}\n"
                         "  crop: [2, 4, 4]\n"
                         "  crops_per_run: 16\n"
                         "  validation_crops_per_run: 4\n"
                         "  points_per_crop: 32\n"
                         "network: {latent: 4, unet_filters: 4, imnet_filters: 2}\n"
                         "physics: {gamma: 0.0125, residual_points: 8}\n"
                         "training:\n"
                         "  epochs: 3\n"
                         "  batch_size: 8\n"
                         "  checkpoint_interval: 1\n"
                         "  optimizer: {type: adam, lr: 1.0e-3}\n"
                         "  loss: {type: l1}\n"
                      << extra;
  return path;
}

}  // namespace surrox::testing
