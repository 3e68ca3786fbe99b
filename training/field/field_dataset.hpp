#pragma once
// Training data from a sweep dataset (io/hdf5_sweep.hpp): per-point inputs (fields, cell
// centroids, swept parameters broadcast to every point) and outputs (fields or single
// components), optional per-point weights (cell areas), split by *case* — never by point — into
// train, validation and test sets, normalised with statistics of the training set only.
//
// Two layouts: `points` (a row per grid cell: inputs [rows, C]) for per-point networks, and
// `grid` (a row per case: inputs [cases, C, nj, ni] in the structured grid's VTK order) for
// networks that use the (i, j) layout.
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/case_node.hpp"
#include "core/schema.hpp"
#include "surrogates/input_description.hpp"
#include "surrogates/normalization.hpp"
#include "surrogates/output_scaling.hpp"
#include "training/tensor_set.hpp"

namespace surrox::training {

using surrogates::Normalization;

struct FieldDataset {
  TensorSet train, validation, test;  // normalised
  Normalization inputs, outputs;
  // What the targets were divided by before their normalisation (`scale_outputs`; none: empty).
  surrogates::OutputScaling output_scaling;
  std::vector<std::string> train_cases, validation_cases, test_cases;
  // What the inputs live on and how samples are taken from it: the sweep's structured grid,
  // "cells" (ni, nj), a row per cell or the whole grid per case.
  std::vector<surrogates::InputDescription> input_domains;
  // Cases whose steady solver stopped unconverged: left out, or kept by include_unconverged.
  std::vector<std::string> unconverged_cases_left_out, unconverged_cases_kept;
  // What the data came from, kept in the model's metadata (training.data) so that `surrox
  // evaluate` can build a new file's inputs the same way; empty for sweep datasets.
  nlohmann::json source = nlohmann::json::object();
  // Rows of each test case when cases differ in size (collections of files); empty: equal.
  std::vector<long> test_case_rows;

  // A set's targets in physical units: un-normalised, the output scaling multiplied back.
  torch::Tensor physical_targets(const TensorSet& set) const;

  // The `data` section: path, inputs, parameters, outputs, scale_outputs, weight, split,
  // group_by, seed, dtype, include_unconverged.
  static Schema schema();
  // `samples` is the network's (networks.hpp: grid_samples_of).
  static FieldDataset load(const CaseNode& section, surrogates::GridSamples samples);
  // Every case of the section's dataset in `test` (no split), normalised with a trained
  // model's statistics, for `surrox evaluate`; the channels must be the model's.
  static FieldDataset load_all(const CaseNode& section, surrogates::GridSamples samples,
                               const Normalization& inputs, const Normalization& outputs);
};

// The cases grouped by key (a group goes to one split whole), in the seeded order the
// train/validation/test split takes: the groups by key, then a Fisher–Yates shuffle. Shared by
// sweep datasets and VTK collections.
std::vector<std::vector<std::size_t>> shuffled_case_groups(
    const std::map<std::string, std::vector<std::size_t>>& groups, std::uint64_t seed);

}  // namespace surrox::training
