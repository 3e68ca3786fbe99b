#pragma once
// What a surrogate's inputs live on, beyond their channel names: one typed description per
// input, saved in the model's metadata ("input_domains", docs/formats.md) so that a coupler can
// check a model against what it will feed it before any inference. A family with several inputs
// (a super-resolution network: coarse space-time crops and query points) names each. The kinds:
//   points               scattered points at continuous coordinates: their dimension;
//   structured_grid      a structured grid: cells per direction (ni, nj[, nk]), 0 for any, and
//                        how a network takes its samples from it (a row per cell or the whole
//                        grid per case);
//   space_time_crops     crops of a space-time field: their extent in cells (nt, nz, nx);
//   atomic_environments  per-atom neighbourhoods: cutoff radius, neighbours kept, species;
//   pod_coefficients     sequences of POD coefficients: modes, steps per sequence.
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

namespace surrox::surrogates {

struct PointInputs {
  long dimensions = 2;
};
// How a network's samples come from a structured grid, which training data and inference must
// agree on: a row per cell (inputs [rows, C], per-point networks; scattered points are always
// taken this way) or the whole grid per case (inputs [cases, C, nj, ni] in VTK order, i fastest;
// grid networks).
enum class GridSamples { kRowPerCell, kWholeGrid };

struct StructuredGridInputs {
  std::vector<long> cells;  // ni, nj[, nk]; 0: any
  GridSamples samples = GridSamples::kRowPerCell;
};
struct SpaceTimeCropInputs {
  std::vector<long> extent;  // nt, nz, nx
};
struct AtomicEnvironmentInputs {
  double cutoff = 0;  // the potential's length unit
  long max_neighbors = 0;
  std::vector<std::string> species;
};
struct PodCoefficientInputs {
  long modes = 0;
  long steps = 0;
};

// Alternatives in the order of input_kind_names().
using InputDomain = std::variant<PointInputs, StructuredGridInputs, SpaceTimeCropInputs,
                                 AtomicEnvironmentInputs, PodCoefficientInputs>;

struct InputDescription {
  std::string name;  // which input: "cells", "coarse", "queries", ...
  InputDomain domain;

  const std::string& kind() const;
  // {"name": ..., "kind": ..., kind-specific keys}
  nlohmann::json to_json() const;
  // InputError naming `source` and the valid kinds when the kind is unknown or a key is wrong.
  static InputDescription from_json(const nlohmann::json& j, const std::string& source);
};

const std::vector<std::string>& input_kind_names();

// The input per cell of a structured grid, as the airfoil families have it.
InputDescription grid_cells_input(std::vector<long> cells,
                                  GridSamples samples = GridSamples::kRowPerCell);

// The names of GridSamples in enumerator order ("row_per_cell", "whole_grid"), and the parse
// of one (InputError naming `what` and the valid names).
const std::vector<std::string>& grid_samples_names();
GridSamples parse_grid_samples(const std::string& name, const std::string& what);

// Whether a network on these inputs takes the whole grid per case: a structured grid input says
// so; otherwise samples are rows (a cell or a point each).
bool takes_whole_grids(const std::vector<InputDescription>& inputs);

// The first description of kind T in `inputs`, or nullptr.
template <class T>
const T* find_input(const std::vector<InputDescription>& inputs) {
  for (const auto& d : inputs)
    if (const T* found = std::get_if<T>(&d.domain)) return found;
  return nullptr;
}

}  // namespace surrox::surrogates
