#include "couplers/field/warm_start_report.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/atomic_file.hpp"

namespace surrox::couplers {
namespace {

using solvers::ResidualLevels;

nlohmann::json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

nlohmann::json cycles_json(const ResidualLevels& levels) {
  nlohmann::json out;
  for (std::size_t l = 0; l < levels.levels().size(); ++l)
    out[ResidualLevels::name(levels.levels()[l])] =
        levels.cycles()[l] >= 0 ? nlohmann::json(levels.cycles()[l]) : nlohmann::json(nullptr);
  return out;
}

nlohmann::json cycles_or_null(long cycles) {
  return cycles >= 0 ? nlohmann::json(cycles) : nlohmann::json(nullptr);
}

// Cycles and wall time to engineering accuracy and to the Cauchy test.
void add_milestones(nlohmann::json& entry, const Milestones& m) {
  entry["cycles_to_engineering_accuracy"] = cycles_or_null(m.accuracy_cycles);
  entry["wall_time_to_engineering_accuracy_s"] = number_or_null(m.accuracy_s);
  entry["cycles_to_cauchy"] = cycles_or_null(m.cauchy_cycles);
  entry["wall_time_to_cauchy_s"] = number_or_null(m.cauchy_s);
}

nlohmann::json warm_results(const CaseRecord& c, const WarmRun& w) {
  const SteadyRun& run = w.run;
  nlohmann::json entry = {{"iterations", run.iterations},
                          {"converged", run.converged},
                          {"final_residual", run.final_residual},
                          {"cycles_to_residual", cycles_json(run.levels)},
                          {"wall_time_s", w.total_s},
                          {"inference_s", w.inference_s},
                          {"solve_s", run.solve_s},
                          {"cl", run.cl},
                          {"cd", run.cd},
                          {"cl_difference", run.cl - c.cold.cl},
                          {"cd_difference", run.cd - c.cold.cd},
                          {"iteration_ratio", number_or_null(iteration_ratio(c, w))},
                          {"wall_speedup", number_or_null(wall_speedup(c, w))},
                          {"guard",
                           {{"repaired_cells", w.guard.repaired},
                            {"nonfinite", w.guard.nonfinite},
                            {"nonpositive_density", w.guard.nonpositive_density},
                            {"nonpositive_pressure", w.guard.nonpositive_pressure}}},
                          {"surrogate_cl", w.surrogate_cl},
                          {"surrogate_cd", w.surrogate_cd},
                          {"field_relative_l2", w.field_relative_l2}};
  add_milestones(entry, warm_milestones(c, w));
  return entry;
}

}  // namespace

nlohmann::json case_results(const CaseRecord& c, const std::vector<std::string>& labels) {
  nlohmann::json entry = {{"name", c.name},
                          {"parameters", c.parameters},
                          {"cells", {c.ni, c.nj}},
                          {"cold",
                           {{"iterations", c.cold.iterations},
                            {"converged", c.cold.converged},
                            {"final_residual", c.cold.final_residual},
                            {"cycles_to_residual", cycles_json(c.cold.levels)},
                            {"wall_time_s", c.cold.solve_s},
                            {"cl", c.cold.cl},
                            {"cd", c.cold.cd}}}};
  add_milestones(entry["cold"], cold_milestones(c));
  for (std::size_t m = 0; m < labels.size(); ++m)
    entry["warm"][labels[m]] = warm_results(c, c.warm.at(m));
  return entry;
}

nlohmann::json model_results(const WarmStartSummary& summary,
                             const std::vector<std::string>& labels) {
  nlohmann::json over;
  for (std::size_t m = 0; m < labels.size(); ++m) {
    const ModelSummary& s = summary.models.at(m);
    over[labels[m]] = {{"median_iteration_ratio", number_or_null(s.median_iteration_ratio)},
                       {"median_wall_speedup", number_or_null(s.median_wall_speedup)},
                       {"min_iteration_ratio", s.min_iteration_ratio},
                       {"max_abs_cl_difference", s.max_abs_cl_difference},
                       {"max_abs_cd_difference", s.max_abs_cd_difference},
                       {"spearman_surrogate_cl", number_or_null(s.spearman_surrogate_cl)},
                       {"spearman_surrogate_cd", number_or_null(s.spearman_surrogate_cd)},
                       {"median_surrogate_cl_relative_error",
                        number_or_null(s.median_surrogate_cl_relative_error)},
                       {"median_field_relative_l2", s.median_field_relative_l2}};
    nlohmann::json per_level;
    for (std::size_t l = 0; l < summary.levels.size(); ++l)
      per_level[ResidualLevels::name(summary.levels[l])] =
          number_or_null(s.median_iteration_ratio_by_level[l]);
    over[labels[m]]["median_iteration_ratio_by_residual"] = per_level;
    over[labels[m]]["median_iteration_ratio_at_engineering_accuracy"] =
        number_or_null(s.median_accuracy_cycle_ratio);
    over[labels[m]]["median_wall_speedup_at_engineering_accuracy"] =
        number_or_null(s.median_accuracy_wall_speedup);
    over[labels[m]]["median_iteration_ratio_at_cauchy"] =
        number_or_null(s.median_cauchy_cycle_ratio);
    over[labels[m]]["median_wall_speedup_at_cauchy"] = number_or_null(s.median_cauchy_wall_speedup);
  }
  return over;
}

std::string comparison_csv(const std::vector<CaseRecord>& records,
                           const std::vector<std::string>& labels) {
  std::string csv =
      "case,start,iterations,converged,wall_time_s,inference_s,cl,cd,surrogate_cl,surrogate_cd,"
      "repaired_cells\n";
  for (const auto& c : records) {
    csv += fmt::format("{},cold,{},{},{:.6g},0,{:.9g},{:.9g},,,0\n", c.name, c.cold.iterations,
                       c.cold.converged, c.cold.solve_s, c.cold.cl, c.cold.cd);
    for (std::size_t m = 0; m < labels.size(); ++m) {
      const WarmRun& w = c.warm.at(m);
      csv += fmt::format("{},{},{},{},{:.6g},{:.6g},{:.9g},{:.9g},{:.9g},{:.9g},{}\n", c.name,
                         labels[m], w.run.iterations, w.run.converged, w.total_s, w.inference_s,
                         w.run.cl, w.run.cd, w.surrogate_cl, w.surrogate_cd, w.guard.repaired);
    }
  }
  return csv;
}

std::string comparison_table(const WarmStartSummary& summary, std::size_t cases,
                             const std::vector<std::string>& labels) {
  std::string table = fmt::format(
      "Warm start vs cold start, {} test cases (medians; Δ: largest |warm − cold|)\n\n", cases);
  table +=
      "| model | cycles cold/warm | wall speedup (incl. inference) | max ΔCl | max ΔCd | surrogate "
      "Cl rel. error | surrogate Cl ρ_s | surrogate Cd ρ_s |\n|---|---|---|---|---|---|---|---|\n";
  for (std::size_t m = 0; m < labels.size(); ++m) {
    const ModelSummary& s = summary.models.at(m);
    table += fmt::format(
        "| {} | {:.2f} | {:.2f} | {:.2e} | {:.2e} | {:.2f} % | {:.4f} | {:.3f} |\n", labels[m],
        s.median_iteration_ratio, s.median_wall_speedup, s.max_abs_cl_difference,
        s.max_abs_cd_difference, 100 * s.median_surrogate_cl_relative_error,
        s.spearman_surrogate_cl, s.spearman_surrogate_cd);
  }
  // The same runs counted at shallower criteria (a run stops only at the deepest).
  table +=
      "\nMedian cycles cold/warm on the way down, at each density-residual level:\n\n| model |";
  for (const double level : summary.levels) table += " " + ResidualLevels::name(level) + " |";
  table += "\n|---|";
  for (std::size_t l = 0; l < summary.levels.size(); ++l) table += "---|";
  table += "\n";
  for (std::size_t m = 0; m < labels.size(); ++m) {
    table += "| " + labels[m] + " |";
    for (const double ratio : summary.models.at(m).median_iteration_ratio_by_level)
      table += fmt::format(" {:.2f} |", ratio);
    table += "\n";
  }
  // The criteria engineers stop at (docs/validation/warm_start.md).
  table += fmt::format(
      "\nCold/warm at engineering accuracy (|ΔCl| ≤ {:g}, |ΔCd| ≤ {:g} to the end, against the cold "
      "run) and at SU2's Cauchy test on Cl and Cd ({} cycles, ε {:g}), medians:\n\n| model | "
      "cycles, accuracy | wall, accuracy | cycles, Cauchy | wall, Cauchy |\n|---|---|---|---|---|\n",
      kClTolerance, kCdTolerance, solvers::kCauchyElements, solvers::kCauchyEpsilon);
  // NaN: the criterion was not met before the run stopped (e.g. the residual target came first).
  const auto shown = [](double value, int decimals) {
    return std::isnan(value) ? std::string("not reached") : fmt::format("{:.{}f}", value, decimals);
  };
  for (std::size_t m = 0; m < labels.size(); ++m) {
    const ModelSummary& s = summary.models.at(m);
    table += fmt::format(
        "| {} | {} | {} | {} | {} |\n", labels[m], shown(s.median_accuracy_cycle_ratio, 2),
        shown(s.median_accuracy_wall_speedup, 2), shown(s.median_cauchy_cycle_ratio, 2),
        shown(s.median_cauchy_wall_speedup, 2));
  }
  table += fmt::format(
      "\nCold start: median {:.0f} cycles, {:.2f} s per case; engineering accuracy after {} "
      "cycles, the Cauchy test after {}.\n",
      summary.cold_median_iterations, summary.cold_median_wall_time_s,
      shown(summary.cold_median_accuracy_cycles, 0), shown(summary.cold_median_cauchy_cycles, 0));
  if (table.find("not reached") != std::string::npos)
    table += "(not reached: the runs met their residual target before the criterion held.)\n";
  return table;
}

std::filesystem::path write_surface_csv(const std::filesystem::path& output_dir,
                                        const CaseRecord& c,
                                        const std::vector<std::string>& labels) {
  const auto case_dir = output_dir / "cases" / c.name;
  std::filesystem::create_directories(case_dir);
  std::string surface = "i,x_over_c,y_over_c,upper,cp_cfd";
  for (const auto& label : labels) surface += ",cp_" + label;
  surface += "\n";
  const Surface& cfd = c.cold_surface;
  for (long i = 0; i < c.ni; ++i) {
    surface +=
        fmt::format("{},{:.9g},{:.9g},{},{:.9g}", i, cfd.x[i], cfd.y[i], cfd.upper[i], cfd.cp[i]);
    for (const auto& w : c.warm) surface += fmt::format(",{:.9g}", w.predicted_surface.cp[i]);
    surface += "\n";
  }
  write_text_atomically(case_dir / "surface.csv", surface);
  return case_dir / "surface.csv";
}

}  // namespace surrox::couplers
