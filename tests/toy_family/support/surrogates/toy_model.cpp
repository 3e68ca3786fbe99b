// ctest-libraries: surrox_surrogates
// ctest-pch: torch
#include "toy_family/support/surrogates/toy_model.hpp"

#include "core/error.hpp"
#include "surrogates/model_file.hpp"

namespace surrox::toy {

ToyLine::ToyLine() { line = register_module("line", torch::nn::Linear(1, 1)); }

torch::Tensor ToyLine::forward(const torch::Tensor& x) { return line->forward(x); }

ToyModel::ToyModel() : network(std::make_shared<ToyLine>()) { network->to(torch::kFloat64); }

ToyModel ToyModel::load(const std::filesystem::path& path) {
  const nlohmann::json metadata = surrogates::read_model_metadata(path);
  if (metadata.value("family", "") != kToyFamily)
    throw InputError(path.string() + ": not a toy model");
  torch::serialize::InputArchive archive, weights;
  std::string text;
  surrogates::open_model_archive(path, archive, text);
  ToyModel model;
  try {
    archive.read("network", weights);
    model.network->load(weights);
  } catch (const c10::Error&) {
    throw InputError(path.string() + ": the toy model's weights are damaged");
  }
  model.training = metadata.value("training", nlohmann::json::object());
  return model;
}

void ToyModel::save(const std::filesystem::path& path) const {
  torch::serialize::OutputArchive archive, weights;
  network->save(weights);
  archive.write("network", weights);
  surrogates::write_model_archive(path, archive, metadata());
}

nlohmann::json ToyModel::metadata() const {
  torch::NoGradGuard no_grad;
  return {{"family", kToyFamily},
          {"slope", network->line->weight.item<double>()},
          {"intercept", network->line->bias.item<double>()},
          {"training", training}};
}

torch::Tensor ToyModel::predict(const torch::Tensor& x) {
  torch::NoGradGuard no_grad;
  return network->forward(x.to(torch::kFloat64));
}

surrogates::NamedTensors ToySurrogateModel::predict(const surrogates::NamedTensors& inputs) {
  return {{"y", model_.predict(inputs.at("x"))}};
}

std::vector<surrogates::TensorSignature> ToySurrogateModel::inputs() const {
  return {{"x", "[rows, 1] float64"}};
}

std::vector<surrogates::TensorSignature> ToySurrogateModel::outputs() const {
  return {{"y", "[rows, 1] float64, w·x + b"}};
}

surrogates::ModelLoaderRegistry::Entry toy_model_loader() {
  return {[](const std::filesystem::path& path) -> std::unique_ptr<surrogates::SurrogateModel> {
            return std::make_unique<ToySurrogateModel>(ToyModel::load(path));
          },
          surrox::Schema(), "the toy family's straight line"};
}

}  // namespace surrox::toy
