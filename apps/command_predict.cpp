// surrox predict MODEL DATA: a trained model applied to a new case, the prediction written on
// the case's mesh (a VTK file ParaView opens) and described in summary.json. The family comes
// from the model's metadata, as for `surrox evaluate`; families without a prediction refuse.
#include <spdlog/spdlog.h>

#include "apps/command.hpp"
#include "core/error.hpp"
#include "surrogates/model_file.hpp"
#include "training/surrogate_family.hpp"

namespace surrox::apps {

namespace {

class PredictCommand final : public Command {
 public:
  std::string name() const override { return "predict"; }
  std::string description() const override {
    return "Apply a trained model to a new case: the predicted fields on the case's mesh "
           "(OUT/prediction.vtu or the mesh's VTK kind) and summary.json (field models trained "
           "on a collection)";
  }
  void configure(CLI::App& app) override {
    app.add_option("model", model_, "a model.pt written by `surrox train` (family `field`)")
        ->required();
    app.add_option("data", data_,
                   "the case to predict on, read as the model's training collection reads a "
                   "case: a VTK file, an OpenFOAM case folder, or a manifest of one case (when "
                   "the model takes parameters); its output arrays need not be there")
        ->required();
    app.add_flag("--openfoam", openfoam_,
                 "DATA an OpenFOAM case folder and the model's rows its cells: also OUT/case, a "
                 "copy of the case (0/ only, no processor*/) whose 0/<field> internalField of "
                 "each predicted field is the prediction, boundary conditions kept");
  }
  std::filesystem::path default_output_dir() const override {
    return default_output_for("predict-", data_.empty() ? "DATA" : data_);
  }

  nlohmann::json run(Runtime& runtime, const std::filesystem::path& output_dir,
                     nlohmann::json& results) override {
    if (!std::filesystem::exists(data_)) throw InputError("no such case: " + data_);
    const std::string family = surrogates::model_family(model_);
    const auto& families = training::surrogate_families();
    if (!families.contains(family))
      throw InputError(model_ + ": a model of family '" + family +
                       "', which this surrox does not know; " + training::kPredictAccepts);
    results["model"] = model_;
    results["data"] = data_;
    results["family"] = family;
    const training::PredictRequest request{model_, data_, runtime, output_dir, family, openfoam_};
    families.create(family)->predict(request, results);
    spdlog::info("predicted with a {} model on {}: {}", family, data_,
                 output_dir.empty() ? "see the log" : (output_dir / "summary.json").string());
    return nullptr;
  }

 private:
  std::string model_, data_;
  bool openfoam_ = false;
};

}  // namespace

std::unique_ptr<Command> make_predict_command() { return std::make_unique<PredictCommand>(); }

}  // namespace surrox::apps
