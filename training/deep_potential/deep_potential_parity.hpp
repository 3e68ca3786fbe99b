#pragma once
// Parity output of `surrox evaluate` for deep potentials (DeePMD-kit's `dp test -d DETAIL`):
// parity_energy.csv (system, frame, label and model energy per atom), parity_force.csv (system,
// atom row, label and model force components) and parity.png (both scatter plots against the
// diagonal, with the RMSEs).
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "surrogates/deep_potential/training_data.hpp"

namespace surrox::training {

struct NamedParity {
  std::string system;
  surrogates::deep_potential::ParityRows rows;
};

// Writes the files into `dir`; returns their paths (parity.png only when it could be drawn).
nlohmann::json write_parity(const std::filesystem::path& dir, const std::vector<NamedParity>& sets);

}  // namespace surrox::training
