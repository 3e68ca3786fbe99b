#pragma once
// `surrox compress`: a trained deep potential with its embedding nets tabulated (tabulate.hpp),
// the three-body part's nets too where the model has one.
// The table's range comes from the smallest neighbour distance of the data the model was
// trained on (DeePMD-kit's min_nbor_dist), or is given.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "surrogates/deep_potential/training_data.hpp"

namespace surrox::surrogates::deep_potential {

// The smallest |r_ij| over every filled neighbour slot of the systems (Å).
double min_neighbor_distance(const std::vector<SystemData>& systems);

struct CompressOptions {
  double stride = 0.01;     // DeePMD-kit's table_stride_1 (normalised s); the coarse part 10×
  double extrapolate = 5;   // the table ends at extrapolate × the data's upper bound
  double min_distance = 0;  // Å; 0: from `data`
  std::vector<std::filesystem::path> data;  // empty: the model's recorded training systems
};

// Reads `input`, tabulates, writes `output`; returns what it did (table parameters, r_min,
// table sizes) for summary.json. InputError for a compressed input or no data to size it.
nlohmann::json compress_model_file(const std::filesystem::path& input,
                                   const std::filesystem::path& output,
                                   const CompressOptions& options);

}  // namespace surrox::surrogates::deep_potential
