#pragma once
// The `super_resolution` family behind the one model interface (surrogates/surrogate_model.hpp):
// a thin adapter owning a SuperResolutionModel and forwarding to its load, save, normalisation
// and network. Channels are p, b, u, w in physical units:
//   inputs  "lowres"  [B, 4, Nt, Nz, Nx] low-resolution crops, (Nt, Nz, Nx) the model's crop;
//           "points"  [B, P, 3] query points (t, z, x) in the crop's unit cube [0, 1]³;
//   output  "fields"  [B, P, 4] the super-resolved channels at the points.
// One encode and one decode per call (callers with many points chunk them, as evaluation does).
#include "surrogates/surrogate_model.hpp"
#include "training/super_resolution/super_resolution_model.hpp"

namespace surrox::training::super_resolution {

class SuperResolutionSurrogateModel final : public surrogates::SurrogateModel {
 public:
  explicit SuperResolutionSurrogateModel(SuperResolutionModel model);
  static std::unique_ptr<surrogates::SurrogateModel> load(const std::filesystem::path& path);

  std::string family() const override { return kFamilyName; }
  nlohmann::json metadata() const override { return model_.metadata(); }
  void save(const std::filesystem::path& path) const override { model_.save(path); }
  surrogates::NamedTensors predict(const surrogates::NamedTensors& inputs) override;
  std::vector<surrogates::TensorSignature> inputs() const override;
  std::vector<surrogates::TensorSignature> outputs() const override;

  SuperResolutionModel& model() { return model_; }

 private:
  SuperResolutionModel model_;
};

// The loader `families/super_resolution.cpp` registers.
surrogates::ModelLoaderRegistry::Entry super_resolution_model_loader();

}  // namespace surrox::training::super_resolution
