#pragma once
// The warm-start comparison over the test set, per model: medians of the cycle and wall-time
// ratios (also per residual decade), the largest Cl and Cd differences to the cold start, the
// Spearman rank correlation of surrogate-only Cl and Cd with the CFD values, and median field
// errors; and the cold start's medians. Medians skip non-finite values (core/statistics.hpp).
#include <map>
#include <string>
#include <vector>

#include "couplers/field/warm_start_records.hpp"

namespace surrox::couplers {

struct ModelSummary {
  double median_iteration_ratio = NAN, median_wall_speedup = NAN, min_iteration_ratio = NAN;
  double max_abs_cl_difference = NAN, max_abs_cd_difference = NAN;
  double spearman_surrogate_cl = NAN, spearman_surrogate_cd = NAN;
  // Median over the cases of |Cl_surrogate − Cl_CFD| / |Cl_CFD| (the warm start's surrogate target,
  // ≤ 5 %, docs/validation/warm_start.md).
  double median_surrogate_cl_relative_error = NAN;
  std::map<std::string, double> median_field_relative_l2;
  std::vector<double> median_iteration_ratio_by_level;  // per WarmStartSummary::levels entry
  // Cold / warm at engineering accuracy and at the Cauchy test (warm time with inference).
  double median_accuracy_cycle_ratio = NAN, median_accuracy_wall_speedup = NAN;
  double median_cauchy_cycle_ratio = NAN, median_cauchy_wall_speedup = NAN;
};

struct WarmStartSummary {
  std::vector<double> levels;        // residual levels counted (the first case's)
  std::vector<ModelSummary> models;  // one per model, in the section's order
  double cold_median_iterations = NAN, cold_median_wall_time_s = NAN;
  double cold_median_accuracy_cycles = NAN, cold_median_cauchy_cycles = NAN;
};

WarmStartSummary summarize(const std::vector<CaseRecord>& records, std::size_t models);

}  // namespace surrox::couplers
