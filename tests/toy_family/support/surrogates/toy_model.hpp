#pragma once
// The toy family's model and file format (its `surrogates/` layer): y = w·x + b, one input and
// one output column, in a torch archive with the "metadata" entry every surrox model carries
// (surrogates/model_file.hpp; family "toy") and the weights. It exists to prove that a family is
// a folder per layer plus one registration call (tests/toy_family/toy_family_test.cpp).
#include <torch/torch.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "surrogates/network.hpp"
#include "surrogates/surrogate_model.hpp"

namespace surrox::toy {

inline constexpr const char* kToyFamily = "toy";

class ToyLine final : public surrogates::Network {
 public:
  ToyLine();
  torch::Tensor forward(const torch::Tensor& x) override;  // [rows, 1] → [rows, 1]

  torch::nn::Linear line{nullptr};
};

class ToyModel {
 public:
  ToyModel();
  // InputError for a file that is not a toy model.
  static ToyModel load(const std::filesystem::path& path);
  // Atomic write (rank 0 only).
  void save(const std::filesystem::path& path) const;

  // {family, slope, intercept, training}: what `surrox evaluate` and the coupler report.
  nlohmann::json metadata() const;
  torch::Tensor predict(const torch::Tensor& x);  // physical x [rows, 1] → y [rows, 1]

  std::shared_ptr<ToyLine> network;
  nlohmann::json training = nlohmann::json::object();  // what the trainer reported
};

// The toy model behind the one model interface: "x" [rows, 1] → "y" [rows, 1], float64.
class ToySurrogateModel final : public surrogates::SurrogateModel {
 public:
  explicit ToySurrogateModel(ToyModel model) : model_(std::move(model)) {}
  std::string family() const override { return kToyFamily; }
  nlohmann::json metadata() const override { return model_.metadata(); }
  void save(const std::filesystem::path& path) const override { model_.save(path); }
  surrogates::NamedTensors predict(const surrogates::NamedTensors& inputs) override;
  std::vector<surrogates::TensorSignature> inputs() const override;
  std::vector<surrogates::TensorSignature> outputs() const override;

 private:
  ToyModel model_;
};

// The loader its registration call registers.
surrogates::ModelLoaderRegistry::Entry toy_model_loader();

}  // namespace surrox::toy
