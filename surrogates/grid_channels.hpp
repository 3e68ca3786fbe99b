#pragma once
// Input channels that every structured-grid case has without storing them: the cell's place in
// the (i, j) index space of an O-grid (periodic in i). Through them a per-point network sees the
// grid's structure: the near-wall cells, crowded into a sliver of x and y, are spread evenly in
// j. Training (training/field_dataset) and inference (couplers/surrogate_field) both compute them
// here, so the two cannot disagree.
#include <cmath>
#include <string>
#include <vector>

namespace surrox::surrogates {

// grid_i_cos, grid_i_sin: cos and sin of 2π(i + ½)/ni, the angle around the periodic direction;
// grid_j: (j + ½)/nj, from the wall (0) to the far field (1).
inline const std::vector<std::string>& grid_index_channels() {
  static const std::vector<std::string> names = {"grid_i_cos", "grid_i_sin", "grid_j"};
  return names;
}

// Position of `name` in grid_index_channels(), or −1 when it is not one of them.
inline int grid_index_channel(const std::string& name) {
  const auto& names = grid_index_channels();
  for (std::size_t k = 0; k < names.size(); ++k)
    if (names[k] == name) return static_cast<int>(k);
  return -1;
}

inline double grid_index_value(int channel, long i, long j, long ni, long nj) {
  const double angle = 2 * M_PI * (static_cast<double>(i) + 0.5) / static_cast<double>(ni);
  if (channel == 0) return std::cos(angle);
  if (channel == 1) return std::sin(angle);
  return (static_cast<double>(j) + 0.5) / static_cast<double>(nj);
}

}  // namespace surrox::surrogates
