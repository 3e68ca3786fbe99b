#pragma once
// What the super-resolution comparison writes: a series of 2D Rayleigh–Bénard cell fields as
// VTK (a .pvd over .vti pieces, for ParaView) and as an HDF5 dataset in the layout of the
// solver's own fields.h5 (cells p, b, u, w on an image grid, the case stored with it), so that
// `surrox info`, `surrox evaluate` and the training readers take it; and the comparison of the
// fine, trilinear and super-resolved statistics as CSV and a markdown table.
#include <torch/torch.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "couplers/super_resolution/super_resolution_statistics.hpp"

namespace surrox::couplers {

struct RbSeriesFiles {
  std::filesystem::path dir;
  std::string case_yaml;  // stored in fields.h5 (its solver section says the grid)
  bool vtk = true;
};

// fields [4, T, Z, X] on [0, lx] × [0, 1]; returns the paths written.
nlohmann::json write_rb_fields(const RbSeriesFiles& files, const torch::Tensor& fields,
                               const std::vector<double>& times, double lx);

// One column per series (e.g. fine, coarse, trilinear, super_resolved).
struct NamedStatistics {
  std::string name;
  RbFlowStatistics statistics;
};

// statistic,<names...>: the figures, then the profile and spectra CSVs next to it.
void write_statistics_csv(const std::filesystem::path& dir,
                          const std::vector<NamedStatistics>& columns);

// The markdown table of comparison.md: every figure per series and its relative error against
// the first column, then the costs.
std::string statistics_table(const std::vector<NamedStatistics>& columns,
                             const nlohmann::json& cost);

}  // namespace surrox::couplers
