// ctest-libraries: surrox_couplers
// ctest-pch: torch
#include "toy_family/support/couplers/toy_decay_coupler.hpp"

#include <cmath>

#include "core/error.hpp"
#include "couplers/case_number.hpp"
#include "solvers/solver.hpp"
#include "surrogates/tensor_bridge.hpp"
#include "toy_family/support/surrogates/toy_model.hpp"

namespace surrox::toy {
namespace {

class ToyDecayCoupler final : public couplers::Coupler {
 public:
  static Schema schema() {
    Schema s("The heat solver beside a toy model of ln(peak u) at the end of the run.");
    s.input_path("model", "model.pt of the toy family");
    s.string("parameter", "key path of the case number the model takes")
        .fallback("solver.diffusivity");
    return s;
  }

  void run(Runtime& runtime, const CaseNode& section,
           const std::vector<couplers::CoupledCase>& cases, const std::filesystem::path&,
           nlohmann::json& results) override {
    ToyModel model = ToyModel::load(section.string("model"));
    const std::string parameter = section.string("parameter");
    double worst = 0;
    for (const auto& c : cases) {
      const auto x = couplers::case_number(c.solver, parameter);
      if (!x) throw InputError(c.name + ": the case has no number at " + parameter);
      auto solver = solvers::registry().create(c.solver.type());
      solver->initialize(c.solver, runtime);
      while (!solver->finished()) solver->advance();
      const torch::Tensor u = surrogates::as_tensor(solver->state().fields.at("u"));
      const double solved = std::log(u.abs().max().item<double>());
      const double predicted =
          model.predict(torch::full({1, 1}, *x, torch::kFloat64)).item<double>();
      worst = std::max(worst, std::fabs(predicted - solved));
      results["cases"].push_back(
          {{"name", c.name}, {"x", *x}, {"solver", solved}, {"model", predicted}});
    }
    results["max_abs_error"] = worst;
  }
};

}  // namespace

couplers::CouplerRegistry::Entry toy_decay_coupler_entry() {
  return {[] { return std::make_unique<ToyDecayCoupler>(); }, ToyDecayCoupler::schema(),
          "the heat demo beside the toy model's ln(peak u) (tests/toy_family)"};
}

}  // namespace surrox::toy
