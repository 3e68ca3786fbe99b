#pragma once
// The `super_resolution` coupler: a coarse Rayleigh–Bénard run super-resolved by a trained
// MeshfreeFlowNet, compared with the fine run of the same case. The case's `solver` section is
// the fine run (its grid the model's training grid); the coarse run divides its cells by the
// model's spatial factors and writes every f_t-th frame, exactly the low-res input the model was
// trained on, so the fine grid is the one to write and the coarse one follows (giving both
// would only add a way to disagree with the model). Per case it writes the super-resolved
// series (super_resolved/fields.{pvd,h5}), the coarse and fine series (fields.h5), and compares
// cost (coarse solve + inference vs the fine solve, wall time in this process) and physics
// (Nusselt numbers, kinetic energy, dissipation rates, ⟨b⟩(z), horizontal spectra) for the
// fine run, the coarse run, its trilinear upsampling and the super-resolved series.
#include "core/schema.hpp"
#include "couplers/coupler.hpp"

namespace surrox::couplers {

class SuperResolutionCoupler final : public Coupler {
 public:
  static Schema schema();
  void run(Runtime& runtime, const CaseNode& section, const std::vector<CoupledCase>& cases,
           const std::filesystem::path& output_dir, nlohmann::json& results) override;
};

}  // namespace surrox::couplers
