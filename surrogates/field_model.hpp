#pragma once
// The `field` family behind the one model interface (surrogate_model.hpp): a thin adapter that
// owns a Surrogate and forwards to its load, save and predict. Surrogate keeps its own typed
// metadata() (SurrogateMetadata, which couplers and training read), so it is wrapped rather
// than made a SurrogateModel itself.
//   input  "inputs"   physical input channels: [points, C_in] for a `points`-layout network,
//                     [cases, C_in, nj, ni] for a `grid` one (VTK order, i fastest);
//   output "outputs"  physical output channels in the same layout, C_out in place of C_in.
// Dtype and device of "inputs" are kept (the network runs in its own).
#include <memory>

#include "surrogates/surrogate.hpp"
#include "surrogates/surrogate_model.hpp"

namespace surrox::surrogates {

inline constexpr const char* kFieldFamily = "field";

class FieldModel final : public SurrogateModel {
 public:
  explicit FieldModel(std::unique_ptr<Surrogate> surrogate);
  // A native model or a TorchScript one (Surrogate::load).
  static std::unique_ptr<SurrogateModel> load(const std::filesystem::path& path);

  std::string family() const override { return kFieldFamily; }
  nlohmann::json metadata() const override { return surrogate_->metadata().to_json(); }
  void save(const std::filesystem::path& path) const override { surrogate_->save(path); }
  NamedTensors predict(const NamedTensors& inputs) override;
  std::vector<TensorSignature> inputs() const override;
  std::vector<TensorSignature> outputs() const override;

  Surrogate& surrogate() { return *surrogate_; }

 private:
  std::unique_ptr<Surrogate> surrogate_;
};

// The loader `families/field.cpp` registers.
ModelLoaderRegistry::Entry field_model_loader();

}  // namespace surrox::surrogates
