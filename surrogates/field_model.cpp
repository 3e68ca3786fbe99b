#include "surrogates/field_model.hpp"

#include "core/suggest.hpp"

namespace surrox::surrogates {
namespace {

std::string field_shape(const SurrogateMetadata& m, const std::vector<std::string>& channels) {
  const std::string c = std::to_string(channels.size()) + " channels: " + surrox::join(channels);
  return takes_whole_grids(m.input_domains) ? "[cases, " + c + ", nj, ni] physical units"
                                            : "[points, " + c + "] physical units";
}

}  // namespace

FieldModel::FieldModel(std::unique_ptr<Surrogate> surrogate) : surrogate_(std::move(surrogate)) {}

std::unique_ptr<SurrogateModel> FieldModel::load(const std::filesystem::path& path) {
  return std::make_unique<FieldModel>(Surrogate::load(path));
}

NamedTensors FieldModel::predict(const NamedTensors& inputs) {
  return {{"outputs", surrogate_->predict(inputs.at("inputs"))}};
}

std::vector<TensorSignature> FieldModel::inputs() const {
  const auto& m = surrogate_->metadata();
  return {{"inputs", field_shape(m, m.inputs.names)}};
}

std::vector<TensorSignature> FieldModel::outputs() const {
  const auto& m = surrogate_->metadata();
  return {{"outputs", field_shape(m, m.outputs.names)}};
}

ModelLoaderRegistry::Entry field_model_loader() {
  return {&FieldModel::load, Schema(),
          "per-cell fields of a steady solver's sweep (Surrogate: a network with metadata)"};
}

}  // namespace surrox::surrogates
