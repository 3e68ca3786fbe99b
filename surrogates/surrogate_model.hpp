#pragma once
// One interface for a trained model of any family, as TorchFort's ModelPack is one for every
// model: what it is (its family and the metadata JSON its file carries), how it is written
// (one torch archive, atomically, through write_model_archive) and how it is applied (named
// tensors in, named tensors out). A family keeps its own model class and code; its adapter
// (one per family, a thin class owning that model) forwards to them, so results are the
// family's own bit for bit. `load_surrogate_model` reads any model file: it takes the family
// from the file's metadata (model_file.hpp) and calls the loader that family registered
// (families::FamilyRegistrar::model).
#include <torch/torch.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/registry.hpp"

namespace surrox::surrogates {

// Tensors by name, in the order they were added (a model's inputs or outputs).
class NamedTensors {
 public:
  NamedTensors() = default;
  NamedTensors(std::initializer_list<std::pair<std::string, torch::Tensor>> entries);

  // Adds or replaces `name`.
  void set(const std::string& name, torch::Tensor tensor);
  bool contains(const std::string& name) const;
  // InputError naming `name` and the names there are when it is missing.
  const torch::Tensor& at(const std::string& name) const;
  std::vector<std::string> names() const;
  std::size_t size() const { return entries_.size(); }
  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }

 private:
  std::vector<std::pair<std::string, torch::Tensor>> entries_;
};

// One tensor a model takes or returns: its name and its shape, dtype and units in words
// ("[frames, atoms, 3] float64, Å"), for listings such as `surrox info`.
struct TensorSignature {
  std::string name;
  std::string shape;
};

class SurrogateModel {
 public:
  virtual ~SurrogateModel() = default;
  // The metadata's "family" ("field", "deep_potential", ...).
  virtual std::string family() const = 0;
  // The JSON the model's file carries as its "metadata" entry (as save() writes it).
  virtual nlohmann::json metadata() const = 0;
  // Atomic write through write_model_archive; load_surrogate_model reads it back.
  virtual void save(const std::filesystem::path& path) const = 0;
  // Inputs by name (those of inputs(); others are ignored) → outputs by name (outputs()),
  // without gradients. A missing input is an InputError naming it.
  virtual NamedTensors predict(const NamedTensors& inputs) = 0;
  virtual std::vector<TensorSignature> inputs() const = 0;
  virtual std::vector<TensorSignature> outputs() const = 0;

  std::vector<std::string> input_names() const;
  std::vector<std::string> output_names() const;
};

// A family's model loader, keyed by family name: Entry{make(path), schema (empty), doc}.
using ModelLoaderRegistry = Registry<SurrogateModel, const std::filesystem::path&>;
const ModelLoaderRegistry& model_loaders();
ModelLoaderRegistry& model_loader_registry();  // for families::FamilyRegistrar

// Any model file, loaded by its family's loader. InputError for a file that is not a surrox
// model, and for a family no loader is registered for (naming the file and the known families).
std::unique_ptr<SurrogateModel> load_surrogate_model(const std::filesystem::path& path);

}  // namespace surrox::surrogates
