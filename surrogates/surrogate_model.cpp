#include "surrogates/surrogate_model.hpp"

#include "core/error.hpp"
#include "core/suggest.hpp"
#include "surrogates/model_file.hpp"

namespace surrox::surrogates {

NamedTensors::NamedTensors(std::initializer_list<std::pair<std::string, torch::Tensor>> entries) {
  for (const auto& [name, tensor] : entries) set(name, tensor);
}

void NamedTensors::set(const std::string& name, torch::Tensor tensor) {
  for (auto& entry : entries_)
    if (entry.first == name) {
      entry.second = std::move(tensor);
      return;
    }
  entries_.emplace_back(name, std::move(tensor));
}

bool NamedTensors::contains(const std::string& name) const {
  for (const auto& entry : entries_)
    if (entry.first == name) return true;
  return false;
}

const torch::Tensor& NamedTensors::at(const std::string& name) const {
  for (const auto& entry : entries_)
    if (entry.first == name) return entry.second;
  throw InputError("no input '" + name + "'" + did_you_mean(name, names()) +
                   "; given: " + (entries_.empty() ? std::string("none") : surrox::join(names())));
}

std::vector<std::string> NamedTensors::names() const {
  std::vector<std::string> out;
  for (const auto& entry : entries_) out.push_back(entry.first);
  return out;
}

namespace {
std::vector<std::string> signature_names(const std::vector<TensorSignature>& signatures) {
  std::vector<std::string> out;
  for (const auto& s : signatures) out.push_back(s.name);
  return out;
}
}  // namespace

std::vector<std::string> SurrogateModel::input_names() const { return signature_names(inputs()); }
std::vector<std::string> SurrogateModel::output_names() const { return signature_names(outputs()); }

ModelLoaderRegistry& model_loader_registry() {
  static ModelLoaderRegistry registry("model family");
  return registry;
}
const ModelLoaderRegistry& model_loaders() { return model_loader_registry(); }

std::unique_ptr<SurrogateModel> load_surrogate_model(const std::filesystem::path& path) {
  const std::string family = model_family(path);
  const auto& loaders = model_loaders();
  if (!loaders.contains(family))
    throw InputError(
        path.string() + ": a model of family '" + family + "', which no registered family loads" +
        did_you_mean(family, loaders.names()) +
        "; known: " + (loaders.names().empty() ? "none" : surrox::join(loaders.names())));
  return loaders.at(family).make(path);
}

}  // namespace surrox::surrogates
