#pragma once
// `surrox predict MODEL DATA` for the `field` family: a per-row model (mlp) trained on a
// collection applied to one new case, read as the model's data section reads its cases (same
// channels, block, rows and OpenFOAM time). The prediction goes onto the case's mesh:
// OUT/prediction.<vtu|vts|vti|vtp> (the block that holds the rows, e.g. an OpenFOAM case's
// internalMesh) with the case's arrays and the predicted ones under their trained names (a vector
// named whole, e.g. U, as one array of its components), as point or cell data as the model's
// rows are.
#include <nlohmann/json.hpp>

#include "surrogates/surrogate.hpp"
#include "training/surrogate_family.hpp"

namespace surrox::training {

// The model's prediction of raw (physical) input rows [rows, inputs], in physical units
// [rows, outputs]; in chunks, so that a large case does not hold every activation at once.
torch::Tensor predict_field_rows(surrogates::Surrogate& model, const torch::Tensor& raw_inputs);

// The field family's `predict`: writes the prediction file and fills `results` (the file, the
// case, its block and rows, the arrays written with their ranges).
void predict_field_case(const PredictRequest& request, nlohmann::json& results);

}  // namespace surrox::training
