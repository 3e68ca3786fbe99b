#pragma once
// AirfRANS's scores of a field surrogate on held-out airfoil cases (Bonnet et al., NeurIPS 2022,
// "AirfRANS"): the MSE of the normalised volume fields (per output channel, over every
// cell of every case), the MSE of the normalised pressure on the surface (the wall cells), the
// mean relative errors of CL and CD, and Spearman's ρ of CL and CD over the cases. CL and CD of
// a case are integrated from its predicted fields and compared with the same integration of its
// CFD fields (training/field/airfoil_wall_forces.hpp), as AirfRANS does. Printed next to AirfRANS's
// published values and the targets of docs/validation/rans_surrogate.md.
#include <torch/torch.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "surrogates/normalization.hpp"

namespace surrox::training {

// mean over cases of |predicted − truth| / |truth| (AirfRANS's relative error of a coefficient);
// InputError on lengths that differ or an empty list.
double mean_relative_error(const std::vector<double>& predicted, const std::vector<double>& truth);

struct AirfransInput {
  std::filesystem::path sweep;  // the sweep dataset the cases come from (grid, free stream)
  std::vector<std::string> cases;
  std::vector<torch::Tensor> predicted, truth;  // per case [cells, C], physical units, cell order
  surrogates::Normalization outputs;            // the model's: what "normalised" means
};

// results["airfrans"]: the scores, the published values, the targets and which are met, and per
// case the coefficients. {"skipped": why} when the model does not predict density, velocity[0],
// velocity[1] and pressure (or Cp), or the dataset is not an airfoil sweep.
nlohmann::json airfrans_metrics(const AirfransInput& input);

// The scores against the published values and the targets as a Markdown table.
std::string airfrans_table(const nlohmann::json& metrics);

}  // namespace surrox::training
