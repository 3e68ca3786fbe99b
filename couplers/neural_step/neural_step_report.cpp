#include "couplers/neural_step/neural_step_report.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numeric>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/statistics.hpp"

namespace surrox::couplers {
namespace {

double neural_step_mean(const std::vector<double>& v) {
  return v.empty() ? NAN : std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

double squared_distance(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t n = 0; n < a.size(); ++n) s += (a[n] - b[n]) * (a[n] - b[n]);
  return s;
}

double squared_norm(const std::vector<double>& a) {
  double s = 0;
  for (double v : a) s += v * v;
  return s;
}

std::string g6(double v) { return fmt::format("{:.6g}", v); }

}  // namespace

NeuralStepComparison compare_to_solver(const NeuralStepRow& row, const NeuralStepRow& solver) {
  NeuralStepComparison c;
  c.mean_energy = neural_step_mean(row.run.energy);
  c.energy_error = c.mean_energy / neural_step_mean(solver.run.energy) - 1;
  double miss = 0, size = 0;
  const auto& a = row.run.samples;
  const auto& b = solver.run.samples;
  for (std::size_t s = 0; s < a.size() && s < b.size(); ++s) {
    miss += squared_distance(a[s], b[s]);
    size += squared_norm(b[s]);
  }
  c.rmse = size > 0 ? std::sqrt(miss / size) : NAN;
  c.final_rmse = a.empty() || b.empty()
                     ? NAN
                     : std::sqrt(squared_distance(a.back(), b.back()) / squared_norm(b.back()));
  c.mean_field_error = std::sqrt(squared_distance(row.run.mean_omega, solver.run.mean_omega) /
                                 squared_norm(solver.run.mean_omega));
  c.speedup = median(solver.work_s) / median(row.work_s);
  return c;
}

nlohmann::json write_neural_step_report(const std::filesystem::path& dir,
                                        const std::vector<NeuralStepRow>& rows,
                                        const NeuralStepWindows& windows, double start_time) {
  const NeuralStepRow& solver = rows.front();
  std::ostringstream csv, md, blocks, energy;
  csv << "run,tolerance,accepted_fraction,speedup,work_s_median,solver_steps,mean_energy,"
         "energy_error,omega_rmse,omega_final_rmse,mean_field_error,projection_failures,"
         "bounds_failures,residual_failures,median_residual,projection_s,inference_s,guard_s,"
         "solver_s,training_s\n";
  md << "| run | residual tolerance | accepted | speedup | time-mean E | E error | ω RMSE (mean / "
        "last) | mean-field error | fails: projection / bounds / residual |\n"
        "|---|---|---|---|---|---|---|---|---|\n";
  blocks << "run,tolerance,block,windows,accepted_fraction\n";
  nlohmann::json out = nlohmann::json::array();
  for (const NeuralStepRow& row : rows) {
    const NeuralStepComparison c = compare_to_solver(row, solver);
    const GuardedRecord* g = row.guarded;
    const double accepted = g ? double(g->accepted) / double(windows.windows) : 0.0;
    const double median_residual = g ? median(g->residuals) : NAN;
    nlohmann::json j = {{"run", row.label},
                        {"tolerance", row.tolerance},
                        {"accepted_fraction", accepted},
                        {"speedup", c.speedup},
                        {"work_s", row.work_s},
                        {"solver_steps", row.run.solver_steps},
                        {"mean_energy", c.mean_energy},
                        {"energy_error", c.energy_error},
                        {"omega_rmse", c.rmse},
                        {"omega_final_rmse", c.final_rmse},
                        {"mean_field_error", c.mean_field_error}};
    if (g) {
      j["failures"] = {{"projection", g->projection_failures},
                       {"bounds", g->bounds_failures},
                       {"residual", g->residual_failures}};
      j["median_residual"] = median_residual;
      j["seconds"] = {{"projection", g->projection_s},
                      {"inference", g->inference_s},
                      {"guard", g->guard_s},
                      {"solver", g->solver_s},
                      {"training", g->training_s}};
      std::vector<double> fractions;
      for (std::size_t b = 0; b < g->accepted_per_block.size(); ++b) {
        const double f = double(g->accepted_per_block[b]) / double(g->windows_per_block[b]);
        fractions.push_back(f);
        blocks << row.label << ',' << g6(row.tolerance) << ',' << b << ','
               << g->windows_per_block[b] << ',' << g6(f) << '\n';
      }
      j["accepted_per_block"] = fractions;
    }
    if (!row.run.own_residuals.empty()) {
      j["own_residual_median"] = median(row.run.own_residuals);
      j["pod_residual_median"] = median(row.run.pod_residuals);
    }
    out.push_back(j);
    csv << row.label << ',' << g6(row.tolerance) << ',' << g6(accepted) << ',' << g6(c.speedup)
        << ',' << g6(median(row.work_s)) << ',' << row.run.solver_steps << ',' << g6(c.mean_energy)
        << ',' << g6(c.energy_error) << ',' << g6(c.rmse) << ',' << g6(c.final_rmse) << ','
        << g6(c.mean_field_error) << ',' << (g ? g->projection_failures : 0) << ','
        << (g ? g->bounds_failures : 0) << ',' << (g ? g->residual_failures : 0) << ','
        << g6(median_residual) << ',' << g6(g ? g->projection_s : 0) << ','
        << g6(g ? g->inference_s : 0) << ',' << g6(g ? g->guard_s : 0) << ','
        << g6(g ? g->solver_s : row.run.work_s) << ',' << g6(g ? g->training_s : 0) << '\n';
    md << fmt::format(
        "| {} | {} | {:.3f} | {:.2f}× | {:.2f} | {:+.2f} % | {:.3f} / {:.3f} | "
        "{:.3f} | {} |\n",
        row.label, std::isnan(row.tolerance) ? "—" : g6(row.tolerance), accepted, c.speedup,
        c.mean_energy, 100 * c.energy_error, c.rmse, c.final_rmse, c.mean_field_error,
        g ? fmt::format("{} / {} / {}", g->projection_failures, g->bounds_failures,
                        g->residual_failures)
          : "—");
  }
  energy << "time";
  for (const NeuralStepRow& row : rows)
    energy << ',' << row.label << (std::isnan(row.tolerance) ? "" : "_" + g6(row.tolerance));
  energy << '\n';
  const double tau = double(windows.k) * windows.dt;
  for (long n = 0; n < windows.windows; ++n) {
    energy << g6(start_time + double(n + 1) * tau);
    for (const NeuralStepRow& row : rows) energy << ',' << g6(row.run.energy[std::size_t(n)]);
    energy << '\n';
  }
  write_text_atomically(dir / "curve.csv", csv.str());
  write_text_atomically(dir / "curve.md", md.str());
  write_text_atomically(dir / "blocks.csv", blocks.str());
  write_text_atomically(dir / "energy.csv", energy.str());
  return {{"rows", out},
          {"table", md.str()},
          {"outputs",
           {{"curve_csv", (dir / "curve.csv").string()},
            {"curve_md", (dir / "curve.md").string()},
            {"blocks_csv", (dir / "blocks.csv").string()},
            {"energy_csv", (dir / "energy.csv").string()}}}};
}

}  // namespace surrox::couplers
