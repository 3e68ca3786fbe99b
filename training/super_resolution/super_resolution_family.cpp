#include "training/super_resolution/super_resolution_family.hpp"

#include "training/super_resolution/super_resolution_training.hpp"

namespace surrox::training {
namespace {

class SuperResolutionFamily final : public SurrogateFamily {
 public:
  void train(const TrainRequest& r, nlohmann::json& results) override {
    super_resolution::train_super_resolution(r.config.root, r.runtime, r.output_dir, r.resume,
                                             r.max_epochs, r.config_path, results);
  }
  void evaluate(const EvaluateRequest& r, nlohmann::json& results) override {
    super_resolution::evaluate_super_resolution(r.model, r.data, r.runtime, r.output_dir, results);
  }
};

}  // namespace

FamilyRegistry::Entry super_resolution_family_entry() {
  return {[] { return std::make_unique<SuperResolutionFamily>(); },
          super_resolution::super_resolution_schema(),
          "space-time super-resolution of Rayleigh–Bénard runs (MeshfreeFlowNet)"};
}

}  // namespace surrox::training
