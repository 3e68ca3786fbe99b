#include "couplers/field/warm_start_statistics.hpp"

#include <algorithm>

#include "core/statistics.hpp"

namespace surrox::couplers {
namespace {

double smallest(const std::vector<double>& v) {
  return v.empty() ? NAN : *std::min_element(v.begin(), v.end());
}
double largest(const std::vector<double>& v) {
  return v.empty() ? NAN : *std::max_element(v.begin(), v.end());
}
// a / b for counts where both runs got there; NaN otherwise.
double count_ratio(long a, long b) {
  return a > 0 && b > 0 ? static_cast<double>(a) / static_cast<double>(b) : NAN;
}

ModelSummary summarize_model(const std::vector<CaseRecord>& records, std::size_t m,
                             const std::vector<double>& levels) {
  std::vector<double> ratio, speedup, dcl, dcd, surrogate_cl, surrogate_cd, cfd_cl, cfd_cd;
  std::vector<double> accuracy_ratio, accuracy_speedup, cauchy_ratio, cauchy_speedup;
  std::vector<double> cl_relative_error;
  std::map<std::string, std::vector<double>> field_error, level_ratio;
  for (const auto& c : records) {
    const WarmRun& w = c.warm.at(m);
    ratio.push_back(iteration_ratio(c, w));
    speedup.push_back(wall_speedup(c, w));
    const auto &cold_cycles = c.cold.levels.cycles(), &warm_cycles = w.run.levels.cycles();
    for (std::size_t l = 0; l < cold_cycles.size(); ++l)
      level_ratio[solvers::ResidualLevels::name(c.cold.levels.levels()[l])].push_back(
          count_ratio(cold_cycles[l], warm_cycles[l]));
    const Milestones cold = cold_milestones(c), warm = warm_milestones(c, w);
    accuracy_ratio.push_back(count_ratio(cold.accuracy_cycles, warm.accuracy_cycles));
    accuracy_speedup.push_back(cold.accuracy_s / warm.accuracy_s);
    cauchy_ratio.push_back(count_ratio(cold.cauchy_cycles, warm.cauchy_cycles));
    cauchy_speedup.push_back(cold.cauchy_s / warm.cauchy_s);
    dcl.push_back(std::abs(w.run.cl - c.cold.cl));
    dcd.push_back(std::abs(w.run.cd - c.cold.cd));
    surrogate_cl.push_back(w.surrogate_cl);
    surrogate_cd.push_back(w.surrogate_cd);
    cfd_cl.push_back(c.cold.cl);
    cl_relative_error.push_back(std::abs(w.surrogate_cl - c.cold.cl) / std::abs(c.cold.cl));
    cfd_cd.push_back(c.cold.cd);
    for (const auto& [name, error] : w.field_relative_l2) field_error[name].push_back(error);
  }
  ModelSummary s;
  s.median_iteration_ratio = median(ratio);
  s.median_wall_speedup = median(speedup);
  s.min_iteration_ratio = smallest(ratio);
  s.max_abs_cl_difference = largest(dcl);
  s.max_abs_cd_difference = largest(dcd);
  s.spearman_surrogate_cl = spearman(surrogate_cl, cfd_cl);
  s.spearman_surrogate_cd = spearman(surrogate_cd, cfd_cd);
  s.median_surrogate_cl_relative_error = median(cl_relative_error);
  for (const auto& [name, values] : field_error) s.median_field_relative_l2[name] = median(values);
  s.median_accuracy_cycle_ratio = median(accuracy_ratio);
  s.median_accuracy_wall_speedup = median(accuracy_speedup);
  s.median_cauchy_cycle_ratio = median(cauchy_ratio);
  s.median_cauchy_wall_speedup = median(cauchy_speedup);
  for (const double level : levels)
    s.median_iteration_ratio_by_level.push_back(
        median(level_ratio[solvers::ResidualLevels::name(level)]));
  return s;
}

}  // namespace

WarmStartSummary summarize(const std::vector<CaseRecord>& records, std::size_t models) {
  WarmStartSummary summary;
  if (!records.empty()) summary.levels = records.front().cold.levels.levels();
  for (std::size_t m = 0; m < models; ++m)
    summary.models.push_back(summarize_model(records, m, summary.levels));
  std::vector<double> cold_iterations, cold_time, cold_accuracy, cold_cauchy;
  for (const auto& c : records) {
    cold_iterations.push_back(static_cast<double>(c.cold.iterations));
    cold_time.push_back(c.cold.solve_s);
    const Milestones m = cold_milestones(c);
    cold_accuracy.push_back(m.accuracy_cycles > 0 ? static_cast<double>(m.accuracy_cycles) : NAN);
    cold_cauchy.push_back(m.cauchy_cycles > 0 ? static_cast<double>(m.cauchy_cycles) : NAN);
  }
  summary.cold_median_iterations = median(cold_iterations);
  summary.cold_median_wall_time_s = median(cold_time);
  summary.cold_median_accuracy_cycles = median(cold_accuracy);
  summary.cold_median_cauchy_cycles = median(cold_cauchy);
  return summary;
}

}  // namespace surrox::couplers
