#include "training/super_resolution/super_resolution_surrogate_model.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace surrox::training::super_resolution {

SuperResolutionSurrogateModel::SuperResolutionSurrogateModel(SuperResolutionModel model)
    : model_(std::move(model)) {}

std::unique_ptr<surrogates::SurrogateModel> SuperResolutionSurrogateModel::load(
    const std::filesystem::path& path) {
  return std::make_unique<SuperResolutionSurrogateModel>(SuperResolutionModel::load(path));
}

surrogates::NamedTensors SuperResolutionSurrogateModel::predict(
    const surrogates::NamedTensors& inputs) {
  torch::NoGradGuard no_grad;
  const torch::Tensor latent = model_.network->encode(model_.normalise(inputs.at("lowres")));
  return {{"fields", model_.denormalise(model_.network->decode(latent, inputs.at("points")))}};
}

std::vector<surrogates::TensorSignature> SuperResolutionSurrogateModel::inputs() const {
  return {{"lowres", fmt::format("[B, 4 (p, b, u, w), {}] low-res crops, physical units",
                                 fmt::join(model_.crop(), ", "))},
          {"points", "[B, P, 3] query points (t, z, x) in [0, 1]³ of the crop"}};
}

std::vector<surrogates::TensorSignature> SuperResolutionSurrogateModel::outputs() const {
  return {{"fields", "[B, P, 4 (p, b, u, w)] at the points, physical units"}};
}

surrogates::ModelLoaderRegistry::Entry super_resolution_model_loader() {
  return {&SuperResolutionSurrogateModel::load, surrox::Schema(),
          "MeshfreeFlowNet: space-time super-resolution of Rayleigh–Bénard runs"};
}

}  // namespace surrox::training::super_resolution
