// ctest-libraries: surrox_families
// ctest-pch: torch
#include "toy_family/support/register_toy_family.hpp"

#include <iostream>

#include "toy_family/support/couplers/toy_decay_coupler.hpp"
#include "toy_family/support/surrogates/toy_model.hpp"
#include "toy_family/support/training/toy_training.hpp"

namespace surrox::toy {
namespace {

// surrox toy-line MODEL: prints the fitted line.
class ToyLineCommand final : public apps::Command {
 public:
  std::string name() const override { return "toy-line"; }
  std::string description() const override { return "Print the line a toy model fitted"; }
  void configure(CLI::App& app) override {
    app.add_option("model", model_, "model.pt of the toy family")->required();
  }
  std::filesystem::path default_output_dir() const override { return {}; }
  nlohmann::json run(Runtime& runtime, const std::filesystem::path&,
                     nlohmann::json& results) override {
    results = ToyModel::load(model_).metadata();
    if (runtime.root())
      std::cout << "y = " << results["slope"].get<double>() << " x + "
                << results["intercept"].get<double>() << "\n";
    return nullptr;
  }

 private:
  std::string model_;
};

}  // namespace

void register_toy_family(families::FamilyRegistrar& registrar) {
  registrar.training(kToyFamily, toy_training_entry());
  registrar.model(kToyFamily, toy_model_loader());
  registrar.coupler("toy_decay", toy_decay_coupler_entry());
  registrar.command([] { return std::make_unique<ToyLineCommand>(); });
}

}  // namespace surrox::toy
