#include "surrogates/deep_potential/deep_potential_model.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "surrogates/deep_potential/environment.hpp"
#include "surrogates/deep_potential/model_file.hpp"

namespace surrox::surrogates::deep_potential {
namespace {

// InputError unless `t` has as many dimensions as `sizes` and those sizes (−1: any).
void check_dp_input(const torch::Tensor& t, const char* name, std::vector<long> sizes) {
  bool fits = t.dim() == static_cast<long>(sizes.size());
  for (std::size_t d = 0; fits && d < sizes.size(); ++d)
    fits = sizes[d] < 0 || t.size(static_cast<long>(d)) == sizes[d];
  if (!fits)
    throw InputError(fmt::format("deep_potential input '{}' has shape {}, expected {}", name,
                                 fmt::join(t.sizes(), " × "), fmt::join(sizes, " × ")));
}

}  // namespace

DeepPotentialModel::DeepPotentialModel(SeE2aModel model, nlohmann::json training)
    : model_(std::move(model)), training_(std::move(training)) {}

std::unique_ptr<SurrogateModel> DeepPotentialModel::load(const std::filesystem::path& path) {
  nlohmann::json metadata;
  SeE2aModel model = load_model(path, &metadata);
  return std::make_unique<DeepPotentialModel>(std::move(model),
                                              metadata.value("training", nlohmann::json()));
}

std::string DeepPotentialModel::family() const { return kFamilyName; }

nlohmann::json DeepPotentialModel::metadata() const { return model_metadata(model_, training_); }

void DeepPotentialModel::save(const std::filesystem::path& path) const {
  save_model(path, model_, training_);
}

NamedTensors DeepPotentialModel::predict(const NamedTensors& inputs) {
  const torch::Tensor coord = inputs.at("coord").to(torch::kFloat64).contiguous();
  const torch::Tensor box = inputs.at("box").to(torch::kFloat64).contiguous();
  const torch::Tensor types = inputs.at("types").to(torch::kInt64).contiguous();
  check_dp_input(types, "types", {-1});
  const long frames = coord.size(0), atoms = types.size(0);
  check_dp_input(coord, "coord", {-1, atoms, 3});
  check_dp_input(box, "box", {frames, 9});
  const SeE2aConfig& c = model_->config();
  std::vector<int> type_of(static_cast<std::size_t>(atoms));
  for (long i = 0; i < atoms; ++i) {
    const long t = types[i].item<long>();
    if (t < 0 || t >= c.ntypes())
      throw InputError(
          fmt::format("deep_potential input 'types': atom {} has type {}, the model "
                      "knows {} ({})",
                      i, t, c.ntypes(), fmt::join(c.type_map, ", ")));
    type_of[static_cast<std::size_t>(i)] = static_cast<int>(t);
  }
  std::vector<FrameEnvironment> environments;
  for (long f = 0; f < frames; ++f)
    environments.push_back(build_environment(coord[f].data_ptr<double>(), box[f].data_ptr<double>(),
                                             type_of, c.rcut, c.sel));
  const Prediction p =
      deep_potential::predict(model_, make_batch(environments, type_of, c.ntypes()));
  return {
      {"energy", p.energy.detach()}, {"force", p.force.detach()}, {"virial", p.virial.detach()}};
}

std::vector<TensorSignature> DeepPotentialModel::inputs() const {
  return {{"coord", "[frames, atoms, 3] float64, Å"},
          {"box", "[frames, 9] float64, Å (rows a, b, c)"},
          {"types", "[atoms] int64, 0-based in type_map [" +
                        fmt::format("{}", fmt::join(model_->config().type_map, ", ")) + "]"}};
}

std::vector<TensorSignature> DeepPotentialModel::outputs() const {
  return {{"energy", "[frames] float64, eV"},
          {"force", "[frames, atoms, 3] float64, eV/Å"},
          {"virial", "[frames, 9] float64, eV"}};
}

ModelLoaderRegistry::Entry deep_potential_model_loader() {
  return {&DeepPotentialModel::load, Schema(),
          "se_e2_a deep potentials: energy, forces and virial of periodic frames"};
}

}  // namespace surrox::surrogates::deep_potential
