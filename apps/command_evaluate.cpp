// surrox evaluate MODEL DATA: measures a trained model of any family on a dataset (held-out
// sweeps for field models, MD frames for deep potentials, ...). The family comes from the
// model's metadata; its figures go into summary.json.
#include <spdlog/spdlog.h>

#include "apps/command.hpp"
#include "core/error.hpp"
#include "surrogates/model_file.hpp"
#include "training/surrogate_family.hpp"

namespace surrox::apps {

namespace {

class EvaluateCommand final : public Command {
 public:
  std::string name() const override { return "evaluate"; }
  std::string description() const override {
    return "Evaluate a trained model (any family) on a dataset: errors per channel into summary.json, "
           "beside the baselines the family has (field models: nearest training case and "
           "inverse-distance interpolation)";
  }
  void configure(CLI::App& app) override {
    app.add_option("model", model_, "a model.pt written by `surrox train` (or TorchScript)")
        ->required();
    app.add_option("data", data_,
                   "the dataset to evaluate on, of the kind the model's family trains on "
                   "(`field` models: a sweep dataset, or for a model trained on a collection a "
                   "VTK file, an OpenFOAM case folder, a manifest, a glob or a folder)")
        ->required();
    app.add_option("--baseline-neighbours", baseline_neighbours_,
                   "field models: k of the inverse-distance interpolation baseline (the k "
                   "nearest training cases in parameter space)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
  }
  std::filesystem::path default_output_dir() const override {
    return default_output_for("evaluate-", data_.empty() ? "DATA" : data_);
  }

  nlohmann::json run(Runtime& runtime, const std::filesystem::path& output_dir,
                     nlohmann::json& results) override {
    if (!std::filesystem::exists(data_)) throw InputError("no such dataset: " + data_);
    const std::string family = surrogates::model_family(model_);
    const auto& families = training::surrogate_families();
    if (!families.contains(family))
      throw InputError(model_ + ": a model of family '" + family +
                       "', which this surrox does not know; known: " + join(families.names()));
    results["model"] = model_;
    results["data"] = data_;
    results["family"] = family;
    const training::EvaluateRequest request{model_, data_, runtime, output_dir,
                                            baseline_neighbours_};
    families.create(family)->evaluate(request, results);
    spdlog::info("evaluated a {} model on {}: {}", family, data_,
                 output_dir.empty() ? "see the log" : (output_dir / "summary.json").string());
    return nullptr;
  }

 private:
  std::string model_, data_;
  long baseline_neighbours_ = 3;
};

}  // namespace

std::unique_ptr<Command> make_evaluate_command() { return std::make_unique<EvaluateCommand>(); }

}  // namespace surrox::apps
