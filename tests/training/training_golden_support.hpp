#pragma once
// Golden pins of the training loops (tests/golden/training/*.yaml), written before the loops
// were merged into one trainer: the supervised Trainer on a small MLP (epochs, clipping, a
// cosine schedule, validation and best-weight restore) and the deep_potential family's step
// loop (DeePMD's decay and prefactors), each pinned bit for bit (epsilon 0) by its loss curve,
// its final metrics and a fingerprint of the trained weights, on 1 rank and on 2.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/runtime.hpp"
#include "deep_potential/deep_potential_training_support.hpp"
#include "support/golden_file.hpp"
#include "support/tensor_fingerprint.hpp"
#include "surrogates/deep_potential/model_file.hpp"
#include "training/collective_data_parallel.hpp"
#include "training/trainer.hpp"
#include "training_section.hpp"

namespace surrox::training::golden_pins {

namespace fs = std::filesystem;

// y = (cos 3x₀ · x₁, x₀ − x₁²) on [-1, 1]², 48 training and 16 validation rows.
inline TensorSet golden_rows(long rows, std::uint64_t seed) {
  torch::manual_seed(seed);
  auto x = torch::rand({rows, 2}, torch::kFloat64) * 2 - 1;
  auto y = torch::stack(
      {torch::cos(3 * x.select(1, 0)) * x.select(1, 1), x.select(1, 0) - x.select(1, 1).square()},
      1);
  return {x, y, {}};
}

struct GoldenMlp final : surrogates::Network {
  torch::nn::Sequential net{nullptr};
  GoldenMlp() {
    net = register_module("net", torch::nn::Sequential(torch::nn::Linear(2, 16), torch::nn::Tanh(),
                                                       torch::nn::Linear(16, 2)));
    to(torch::kFloat64);
  }
  torch::Tensor forward(const torch::Tensor& x) override { return net->forward(x); }
};

// Trains the MLP 12 epochs (batches of 10 rows: the last batch is short) and pins it.
inline void pin_supervised_trainer(const std::string& golden_name, const fs::path& dir) {
  const TensorSet train = golden_rows(48, 11), validation = golden_rows(16, 12);
  torch::manual_seed(5);
  GoldenMlp model;
  Trainer trainer(training_section({"training.epochs=12", "training.batch_size=10",
                                    "training.clip_grad_norm=0.5", "training.seed=3",
                                    "training.schedule={type: cosine}",
                                    "training.optimizer={type: adam, lr: 0.02}"}),
                  collective_data_parallel(surrox::testing::runtime().comm()));
  const TrainResult result = trainer.fit(model, train, validation, dir);
  std::vector<double> train_losses, validation_losses, rates;
  for (const auto& r : result.history) {
    train_losses.push_back(r.train_loss);
    validation_losses.push_back(r.validation_loss);
    rates.push_back(r.learning_rate);
  }
  surrox::testing::GoldenFile golden(golden_name,
                                     "tests/training/training_golden_support.hpp: "
                                     "pin_supervised_trainer (Trainer::fit, 12 epochs)");
  golden.check("train_loss", train_losses);
  golden.check("validation_loss", validation_losses);
  golden.check("learning_rate", rates);
  golden.check("best_epoch", static_cast<double>(result.best_epoch));
  golden.check("weights_square_sum", surrox::testing::tensor_square_sum(model.parameters()));
  golden.check_fingerprint("weights_fingerprint",
                           surrox::testing::tensor_fingerprint(model.parameters()));
}

// metrics.csv's columns 1 (train_loss) and 2 (validation_loss) as numbers.
inline std::vector<std::vector<double>> dp_loss_columns(const fs::path& csv) {
  std::ifstream in(csv);
  std::vector<std::vector<double>> columns(2);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string cell;
    std::getline(row, cell, ',');
    for (auto& column : columns) {
      std::getline(row, cell, ',');
      column.push_back(std::stod(cell));
    }
  }
  return columns;
}

// The deep_potential family's 20-step run of its training tests, pinned.
inline void pin_deep_potential(const std::string& golden_name, const fs::path& dir) {
  Runtime& runtime = surrox::testing::runtime();
  if (runtime.root()) {
    dp_test::write_dp_frames(dir / "train", 16, 1);
    dp_test::write_dp_frames(dir / "held", 6, 2);
  }
  MPI_Barrier(runtime.comm());
  const std::string text = dp_test::dp_config_text(dir / "train", dir / "held");
  const nlohmann::json results = dp_test::dp_train(text, dir / "run");
  MPI_Barrier(runtime.comm());  // rank 0 has written the model and metrics.csv
  surrox::testing::GoldenFile golden(golden_name,
                                     "tests/training/training_golden_support.hpp: "
                                     "pin_deep_potential (DeepPotentialFamily::train, 20 steps)");
  const auto columns = dp_loss_columns(dir / "run/metrics.csv");
  golden.check("csv_train_loss", columns[0]);
  golden.check("csv_validation_loss", columns[1]);
  for (const char* split : {"train", "validation"})
    for (const char* key : {"energy_rmse_per_atom", "force_rmse", "virial_rmse_per_atom"})
      golden.check(std::string(split) + "_" + key, results[split][key].get<double>());
  auto model = surrogates::deep_potential::load_model(dir / "run/model.pt");
  golden.check("weights_square_sum", surrox::testing::tensor_square_sum(model->parameters()));
  golden.check_fingerprint("weights_fingerprint",
                           surrox::testing::tensor_fingerprint(model->parameters()));
}

}  // namespace surrox::training::golden_pins
