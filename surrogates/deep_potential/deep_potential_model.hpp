#pragma once
// The `deep_potential` family behind the one model interface (surrogates/surrogate_model.hpp):
// a thin adapter owning an se_e2_a model and its training record, forwarding to load_model,
// save_model and predict (model_file.hpp, se_e2_a.hpp). Frames of one system:
//   inputs  "coord"   [frames, atoms, 3] float64, Å;
//           "box"     [frames, 9] float64, Å, the rows a, b, c (periodic, triclinic allowed);
//           "types"   [atoms] int64, indices into the config's type_map;
//   outputs "energy"  [frames] float64, eV;
//           "force"   [frames, atoms, 3] float64, eV/Å;
//           "virial"  [frames, 9] float64, eV (LAMMPS's sign).
// Neighbours are those build_environment finds within the model's rcut and sel.
#include "surrogates/deep_potential/se_e2_a.hpp"
#include "surrogates/surrogate_model.hpp"

namespace surrox::surrogates::deep_potential {

class DeepPotentialModel final : public SurrogateModel {
 public:
  explicit DeepPotentialModel(SeE2aModel model, nlohmann::json training = {});
  static std::unique_ptr<SurrogateModel> load(const std::filesystem::path& path);

  std::string family() const override;
  nlohmann::json metadata() const override;
  void save(const std::filesystem::path& path) const override;
  NamedTensors predict(const NamedTensors& inputs) override;
  std::vector<TensorSignature> inputs() const override;
  std::vector<TensorSignature> outputs() const override;

  SeE2aModel& model() { return model_; }

 private:
  // SeE2aModel is a shared handle: the const interface still reads and writes through it.
  mutable SeE2aModel model_;
  nlohmann::json training_;
};

// The loader `families/deep_potential.cpp` registers.
ModelLoaderRegistry::Entry deep_potential_model_loader();

}  // namespace surrox::surrogates::deep_potential
