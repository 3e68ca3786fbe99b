#pragma once
// Statistics over a test set, shared by the couplers' comparisons and training's evaluations:
// a median that skips non-finite values, Spearman's rank correlation and the relative L2 error.
// Plain C++ (no Kokkos, no LibTorch), so every layer can use them.
#include <cstddef>
#include <vector>

namespace surrox {

// Median of the finite values; NaN when there are none.
double median(std::vector<double> values);

// Spearman rank correlation (average ranks for ties); NaN with fewer than 3 values, lengths
// that differ, or no spread.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

// ‖predicted − truth‖₂ / ‖truth‖₂ over n values in memory order (‖predicted − truth‖₂ when the
// truth is all zero).
double relative_l2(const double* predicted, const double* truth, std::size_t n);

}  // namespace surrox
