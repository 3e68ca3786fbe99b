// ctest-libraries: surrox_training
// ctest-pch: torch
#include "toy_family/support/training/toy_training.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "toy_family/support/surrogates/toy_model.hpp"
#include "training/collective_data_parallel.hpp"
#include "training/trainer.hpp"

namespace surrox::toy {
namespace {

Schema toy_config_schema() {
  Schema root("The toy family: a straight line y = w·x + b fitted to rows of a CSV file.");
  root.section("runtime", training::runtime_config_schema(), "threads and logging");
  Schema data("The rows to fit.");
  data.input_path("train", "CSV file with the header x,y: the training rows");
  data.input_path("validation", "CSV file with the header x,y: the validation rows");
  root.section("data", data, "the training and validation rows");
  root.section("training", training::Trainer::schema(), "optimizer, schedule, loss, epochs");
  return root;
}

class ToyTraining final : public training::SurrogateFamily {
 public:
  void train(const training::TrainRequest& request, nlohmann::json& results) override {
    const CaseNode data = request.config.root.section("data");
    const training::TensorSet train = read_toy_rows(data.string("train"));
    const training::TensorSet validation = read_toy_rows(data.string("validation"));
    const CaseNode section = request.config.root.section("training");
    torch::manual_seed(static_cast<std::uint64_t>(section.integer("seed")));
    ToyModel model;
    training::Trainer trainer(section, training::collective_data_parallel(request.runtime.comm()));
    const training::TrainResult fit = trainer.fit(
        *model.network, train, validation, request.output_dir, request.resume, request.max_epochs);
    model.training = {{"epochs", fit.history.size()},
                      {"final_train_loss", fit.history.back().train_loss},
                      {"final_validation_loss", fit.history.back().validation_loss}};
    if (request.runtime.root()) model.save(request.output_dir / "model.pt");
    results["model"] = model.metadata();
  }

  void evaluate(const training::EvaluateRequest& request, nlohmann::json& results) override {
    ToyModel model = ToyModel::load(request.model);
    const training::TensorSet rows = read_toy_rows(request.data);
    const torch::Tensor error = model.predict(rows.inputs) - rows.targets;
    results["rows"] = rows.rows();
    results["rmse"] = std::sqrt(error.square().mean().item<double>());
    results["model"] = model.metadata();
  }
};

}  // namespace

training::TensorSet read_toy_rows(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot read " + path.string());
  std::string line;
  if (!std::getline(in, line) || line != "x,y")
    throw InputError(path.string() + ":1: expected the header x,y");
  std::vector<double> x, y;
  for (long number = 2; std::getline(in, line); ++number) {
    std::istringstream fields(line);
    double a = 0, b = 0;
    char comma = 0;
    if (!(fields >> a >> comma >> b) || comma != ',')
      throw InputError(path.string() + ":" + std::to_string(number) + ": expected x,y");
    x.push_back(a);
    y.push_back(b);
  }
  if (x.empty()) throw InputError(path.string() + ": no rows");
  const auto options = torch::TensorOptions().dtype(torch::kFloat64);
  const long n = static_cast<long>(x.size());
  return {torch::tensor(x, options).reshape({n, 1}), torch::tensor(y, options).reshape({n, 1}),
          torch::Tensor()};
}

training::FamilyRegistry::Entry toy_training_entry() {
  return {[] { return std::make_unique<ToyTraining>(); }, toy_config_schema(),
          "a straight line fitted to CSV rows (the test family of tests/toy_family)"};
}

}  // namespace surrox::toy
