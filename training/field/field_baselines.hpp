#pragma once
// The baselines a practitioner tries before a field surrogate, computed on the same evaluated
// cases as the model (`surrox evaluate`): the nearest training case in normalised parameter
// space, and inverse-distance interpolation (weights 1/d²) over the k nearest training cases.
// A case's parameters are its input channels that are constant over its rows and vary between
// the training cases (angle, speed, ...), each scaled by its standard deviation over the
// training cases; the training cases are those of the evaluated data the model trained on
// (training and validation splits), and a training case is never its own neighbour.
// Fields are combined point by point: on one shared mesh (equal rows and equal coordinate
// channels), by grid index where the cases are structured grids of one topology whose points
// differ (body-fitted grids of other shapes), and otherwise by a nearest-point transfer (each
// row takes the value of the other case's row nearest in the non-parameter input channels,
// scaled by their spread; no interpolation within cells).
#include <torch/torch.h>

#include <optional>
#include <string>
#include <vector>

namespace surrox::training {

struct FieldBaselineInputs {
  std::vector<torch::Tensor> inputs;   // per case [rows, C_in], physical units
  std::vector<torch::Tensor> outputs;  // per case [rows, C_out], physical units
  std::vector<bool> training;          // per case: the model trained on it
  long neighbours = 3;                 // k of the interpolation
  bool structured = false;             // rows are cells of a structured grid, in grid order
};

struct FieldBaselines {
  std::string skipped;   // why there are none (empty when computed)
  std::string combined;  // how fields of two cases were combined: "one mesh", "grid index",
                         // "nearest point"
  // Per case [rows, C_out]: the nearest training case's fields, and the interpolation.
  std::vector<torch::Tensor> nearest, interpolated;
  std::vector<std::string> parameters;  // the input channels used as parameters
  std::vector<long> parameter_channels;
};

FieldBaselines field_baselines(const FieldBaselineInputs& in,
                               const std::vector<std::string>& input_names);

}  // namespace surrox::training
