#include "couplers/warm_start.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <optional>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "couplers/field_guard.hpp"
#include "couplers/surrogate_field.hpp"
#include "mesh/airfoil_grid.hpp"
#include "solvers/airfoil/airfoil_solver.hpp"
#include "solvers/residual_levels.hpp"

namespace surrox::couplers {
namespace {

using solvers::airfoil::AirfoilSolver;

struct Model {
  std::string label;
  std::filesystem::path path;
  std::unique_ptr<surrogates::Surrogate> surrogate;
};

using solvers::ResidualLevels;

struct Run {
  ResidualLevels levels;  // where the residual crossed each decade for good
  long iterations = 0;
  bool converged = false;
  double solve_s = 0;
  double cl = NAN, cd = NAN;
  double final_residual = NAN;
};

// Iterates to the solver's own criterion (or max_iterations); divergence ends the run.
Run iterate(AirfoilSolver& solver) {
  Run run{ResidualLevels(solver.parameters().residual_drop)};
  Stopwatch watch;
  while (!solver.finished()) {
    solver.advance();
    if (!std::isfinite(solver.residual())) break;
    run.levels.record(solver.residual(), solver.step());
  }
  run.solve_s = watch.seconds();
  run.iterations = solver.step();
  run.final_residual = solver.residual();
  run.converged =
      std::isfinite(solver.residual()) && solver.residual() <= solver.parameters().residual_drop;
  solver.compute_residual();  // coefficients of the final state (as the solver's summary reports
                              // them)
  const auto c = solver.coefficients();
  run.cl = c.at("cl"), run.cd = c.at("cd");
  return run;
}

// A numeric value of the case by key path ("solver.alpha_deg"); nullopt when absent or text.
std::optional<double> case_number(const CaseNode& solver, const std::string& key_path) {
  const std::string prefix = solver.path() + ".";
  if (key_path.rfind(prefix, 0) != 0) return std::nullopt;
  YAML::Node node = YAML::Clone(solver.yaml());
  std::size_t start = prefix.size();
  while (true) {
    const std::size_t dot = key_path.find('.', start);
    const std::string key =
        key_path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!node.IsMap() || !node[key]) return std::nullopt;
    node = node[key];
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (!node.IsScalar()) return std::nullopt;
  try {
    return node.as<double>();
  } catch (const YAML::Exception&) {
    return std::nullopt;
  }
}

double relative_l2(const mesh::HostMatrix& predicted, const mesh::HostMatrix& truth) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < truth.extent(0); ++i)
    for (std::size_t j = 0; j < truth.extent(1); ++j) {
      const double d = predicted(i, j) - truth(i, j);
      num += d * d, den += truth(i, j) * truth(i, j);
    }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

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

}  // namespace

long start_from_field(AirfoilSolver& solver, const PrimitiveField& f) {
  solver.set_initial_primitive(f.rho, f.u, f.v,
                               f.p);  // also sets the far-field vortex from the field's lift
  return 0;
}

double median(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n = a.size();
  if (n < 3 || b.size() != n) return NAN;
  auto ranks = [n](const std::vector<double>& x) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](std::size_t p, std::size_t q) { return x[p] < x[q]; });
    std::vector<double> r(n);
    for (std::size_t s = 0; s < n;) {
      std::size_t e = s;
      while (e + 1 < n && x[order[e + 1]] == x[order[s]]) ++e;
      for (std::size_t k = s; k <= e; ++k) r[order[k]] = 0.5 * static_cast<double>(s + e) + 1;
      s = e + 1;
    }
    return r;
  };
  const auto ra = ranks(a), rb = ranks(b);
  const double ma = std::accumulate(ra.begin(), ra.end(), 0.0) / n,
               mb = std::accumulate(rb.begin(), rb.end(), 0.0) / n;
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t k = 0; k < n; ++k)
    sab += (ra[k] - ma) * (rb[k] - mb), saa += (ra[k] - ma) * (ra[k] - ma),
        sbb += (rb[k] - mb) * (rb[k] - mb);
  return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : NAN;
}

Schema WarmStart::schema() {
  Schema s(
      "Cold start vs. warm starts from surrogate predictions of the steady airfoil field, on the "
      "cases of the "
      "`sweep` section (the held-out test set), each to the solver's convergence criterion.");
  s.strings("models",
            "model.pt files written by `surrox train` (relative to the case file); empty: cold "
            "starts only "
            "(the baseline)");
  s.strings("labels",
            "a name per model for the summary (e.g. [mse, area_weighted]); empty: the models' "
            "folder names")
      .fallback("[]");
  return s;
}

void WarmStart::run(Runtime& runtime, const CaseNode& section,
                    const std::vector<CoupledCase>& cases, const std::filesystem::path& output_dir,
                    nlohmann::json& results) {
  if (runtime.size() > 1)
    throw InputError(
        fmt::format(
            "the warm-start comparison runs on one MPI rank (got {}): its wall times compare "
            "runs on an otherwise idle core",
            runtime.size()),
        section.context());
  auto paths = section.strings("models");
  auto labels = section.strings("labels");
  if (!labels.empty() && labels.size() != paths.size())
    section.fail("labels", fmt::format("{} labels for {} models", labels.size(), paths.size()));
  std::vector<Model> models;
  for (std::size_t m = 0; m < paths.size(); ++m) {
    std::filesystem::path path(paths[m]);
    if (path.is_relative() && !section.origin().directory.empty())
      path = section.origin().directory / path;
    if (!std::filesystem::exists(path))
      section.fail("models", "no such model file: " + path.string());
    Model model;
    model.path = path;
    model.label = labels.empty() ? path.parent_path().filename().string() : labels[m];
    try {
      model.surrogate = surrogates::Surrogate::load(path);
    } catch (const InputError& e) {
      throw InputError(path.string() + ": " + e.what(), section.context("models"));
    }
    models.push_back(std::move(model));
  }
  for (const auto& c : cases)
    if (c.solver.type() != "airfoil")
      c.solver.fail("type",
                    "the warm-start coupler drives the airfoil solver; this case's solver is '" +
                        c.solver.type() + "'");

  // Every model must fit every case before anything runs.
  std::vector<CaseChannels> inputs;
  for (const auto& c : cases) {
    mesh::AirfoilGridInfo info;
    const mesh::CurvilinearGrid grid = mesh::build_airfoil_grid(c.solver.section("mesh"), &info);
    // Shape inputs as the solver reports them into a sweep dataset; swept keys by key path.
    std::map<std::string, double> parameters = mesh::named_descriptors(info.shape);
    for (const auto& model : models)
      for (const auto& name : model.surrogate->metadata().inputs.names)
        if (auto v = case_number(c.solver, name)) parameters[name] = *v;
    inputs.push_back(airfoil_case_channels(grid, mesh::compute_metrics(grid), parameters));
    if (auto mach = case_number(c.solver, c.solver.path() + ".mach"))
      inputs.back().freestream_pressure = 1 / (solvers::airfoil::kGamma * *mach * *mach);
    for (const auto& model : models) {
      try {
        fitted_inputs(*model.surrogate, inputs.back(), grid.cells_i(), grid.cells_j());
      } catch (const InputError& e) {
        throw InputError("model '" + model.label + "' (" + model.path.string() +
                             ") does not fit case " + c.name + ": " + e.what(),
                         section.context("models"));
      }
    }
  }

  nlohmann::json per_case = nlohmann::json::array();
  std::map<std::string, std::vector<double>> ratio, speedup, dcl, dcd, s_cl, s_cd;
  // Per model and residual level: cold/warm cycle ratios over the cases.
  std::map<std::string, std::map<std::string, std::vector<double>>> level_ratio;
  const std::vector<double> levels =
      cases.empty() ? std::vector<double>{}
                    : ResidualLevels(cases.front().solver.real("residual_drop")).levels();
  std::map<std::string, std::map<std::string, std::vector<double>>> field_error;
  std::vector<double> cfd_cl, cfd_cd;
  std::string csv =
      "case,start,iterations,converged,wall_time_s,inference_s,cl,cd,surrogate_cl,surrogate_cd,"
      "repaired_cells\n";

  for (std::size_t k = 0; k < cases.size(); ++k) {
    const CoupledCase& c = cases[k];
    spdlog::info("warm start: case {}/{} {}", k + 1, cases.size(), c.name);
    const CaseChannels& channels = inputs[k];
    const long ni = static_cast<long>(channels.cell.at("centroid_x").extent(0));
    const long nj = static_cast<long>(channels.cell.at("centroid_x").extent(1));

    AirfoilSolver cold;
    cold.initialize(c.solver, runtime);
    const Run base = iterate(cold);
    const auto truth = cold.primitive_host();
    const auto cold_surface = cold.surface();
    cfd_cl.push_back(base.cl), cfd_cd.push_back(base.cd);
    spdlog::info("  cold: {} cycles, {:.2f} s, Cl {:.5f}, Cd {:.6f}", base.iterations, base.solve_s,
                 base.cl, base.cd);
    csv += fmt::format("{},cold,{},{},{:.6g},0,{:.9g},{:.9g},,,0\n", c.name, base.iterations,
                       base.converged, base.solve_s, base.cl, base.cd);

    nlohmann::json entry = {{"name", c.name},
                            {"parameters", c.parameters},
                            {"cells", {ni, nj}},
                            {"cold",
                             {{"iterations", base.iterations},
                              {"converged", base.converged},
                              {"final_residual", base.final_residual},
                              {"cycles_to_residual", cycles_json(base.levels)},
                              {"wall_time_s", base.solve_s},
                              {"cl", base.cl},
                              {"cd", base.cd}}}};
    std::vector<AirfoilSolver::Surface> predicted_surfaces;
    for (auto& model : models) {
      AirfoilSolver warm;
      warm.initialize(c.solver, runtime);
      Stopwatch watch;
      PrimitiveField field = predict_primitive(*model.surrogate, channels, ni, nj);
      const GuardReport guard =
          repair_unphysical(field, warm.parameters().mach, warm.parameters().alpha_deg);
      const double inference_s = watch.seconds();
      // Surrogate alone: the predicted field's wall forces and surface Cp (not timed).
      warm.set_initial_primitive(field.rho, field.u, field.v, field.p);
      warm.compute_residual();
      const auto predicted = warm.coefficients();
      predicted_surfaces.push_back(warm.surface());
      Stopwatch priming;
      const long primed = start_from_field(warm, field);
      const double priming_s = priming.seconds();
      Run run = iterate(warm);
      run.iterations += primed;
      run.solve_s += priming_s;
      const double total_s = inference_s + run.solve_s;
      const double r =
          run.iterations > 0 ? static_cast<double>(base.iterations) / run.iterations : NAN;
      const double sp = total_s > 0 ? base.solve_s / total_s : NAN;
      ratio[model.label].push_back(r), speedup[model.label].push_back(sp);
      const auto &cold_cycles = base.levels.cycles(), &warm_cycles = run.levels.cycles();
      for (std::size_t l = 0; l < cold_cycles.size(); ++l)
        level_ratio[model.label][ResidualLevels::name(base.levels.levels()[l])].push_back(
            warm_cycles[l] > 0 && cold_cycles[l] > 0
                ? static_cast<double>(cold_cycles[l]) / static_cast<double>(warm_cycles[l])
                : NAN);
      dcl[model.label].push_back(std::abs(run.cl - base.cl)),
          dcd[model.label].push_back(std::abs(run.cd - base.cd));
      s_cl[model.label].push_back(predicted.at("cl")),
          s_cd[model.label].push_back(predicted.at("cd"));
      nlohmann::json errors;
      const char* names[4] = {"density", "velocity_x", "velocity_y", "pressure"};
      const mesh::HostMatrix* fields[4] = {&field.rho, &field.u, &field.v, &field.p};
      for (int q = 0; q < 4; ++q) {
        errors[names[q]] = relative_l2(*fields[q], truth[q]);
        field_error[model.label][names[q]].push_back(errors[names[q]].get<double>());
      }
      spdlog::info(
          "  warm ({}): {} cycles, {:.2f} s incl. {:.3f} s inference, Cl {:.5f}, Cd {:.6f}; {} "
          "cells repaired",
          model.label, run.iterations, total_s, inference_s, run.cl, run.cd, guard.repaired);
      csv += fmt::format("{},{},{},{},{:.6g},{:.6g},{:.9g},{:.9g},{:.9g},{:.9g},{}\n", c.name,
                         model.label, run.iterations, run.converged, total_s, inference_s, run.cl,
                         run.cd, predicted.at("cl"), predicted.at("cd"), guard.repaired);
      entry["warm"][model.label] = {{"iterations", run.iterations},
                                    {"converged", run.converged},
                                    {"final_residual", run.final_residual},
                                    {"cycles_to_residual", cycles_json(run.levels)},
                                    {"wall_time_s", total_s},
                                    {"inference_s", inference_s},
                                    {"solve_s", run.solve_s},
                                    {"cl", run.cl},
                                    {"cd", run.cd},
                                    {"cl_difference", run.cl - base.cl},
                                    {"cd_difference", run.cd - base.cd},
                                    {"iteration_ratio", number_or_null(r)},
                                    {"wall_speedup", number_or_null(sp)},
                                    {"guard",
                                     {{"repaired_cells", guard.repaired},
                                      {"nonfinite", guard.nonfinite},
                                      {"nonpositive_density", guard.nonpositive_density},
                                      {"nonpositive_pressure", guard.nonpositive_pressure}}},
                                    {"surrogate_cl", predicted.at("cl")},
                                    {"surrogate_cd", predicted.at("cd")},
                                    {"field_relative_l2", errors}};
    }
    // Surface Cp of the converged field and of each prediction.
    const auto case_dir = output_dir / "cases" / c.name;
    std::filesystem::create_directories(case_dir);
    std::string surface = "i,x_over_c,y_over_c,upper,cp_cfd";
    for (const auto& model : models) surface += ",cp_" + model.label;
    surface += "\n";
    for (long i = 0; i < ni; ++i) {
      surface += fmt::format("{},{:.9g},{:.9g},{},{:.9g}", i, cold_surface.x[i], cold_surface.y[i],
                             cold_surface.upper[i], cold_surface.cp[i]);
      for (const auto& s : predicted_surfaces) surface += fmt::format(",{:.9g}", s.cp[i]);
      surface += "\n";
    }
    write_text_atomically(case_dir / "surface.csv", surface);
    entry["surface_csv"] = (case_dir / "surface.csv").string();
    per_case.push_back(entry);
  }
  write_text_atomically(output_dir / "comparison.csv", csv);

  nlohmann::json over;
  std::string table =
      fmt::format("Warm start vs cold start, {} test cases (medians; Δ: largest |warm − cold|)\n\n",
                  cases.size());
  table +=
      "| model | cycles cold/warm | wall speedup (incl. inference) | max ΔCl | max ΔCd | surrogate "
      "Cl ρ_s | "
      "surrogate Cd ρ_s |\n|---|---|---|---|---|---|---|\n";
  for (const auto& model : models) {
    const auto& l = model.label;
    const double max_dcl = *std::max_element(dcl[l].begin(), dcl[l].end());
    const double max_dcd = *std::max_element(dcd[l].begin(), dcd[l].end());
    const double rho_cl = spearman(s_cl[l], cfd_cl), rho_cd = spearman(s_cd[l], cfd_cd);
    nlohmann::json errors;
    for (const auto& [name, values] : field_error[l]) errors[name] = median(values);
    over[l] = {{"median_iteration_ratio", number_or_null(median(ratio[l]))},
               {"median_wall_speedup", number_or_null(median(speedup[l]))},
               {"min_iteration_ratio", *std::min_element(ratio[l].begin(), ratio[l].end())},
               {"max_abs_cl_difference", max_dcl},
               {"max_abs_cd_difference", max_dcd},
               {"spearman_surrogate_cl", number_or_null(rho_cl)},
               {"spearman_surrogate_cd", number_or_null(rho_cd)},
               {"median_field_relative_l2", errors}};
    table += fmt::format("| {} | {:.2f} | {:.2f} | {:.2e} | {:.2e} | {:.3f} | {:.3f} |\n", l,
                         median(ratio[l]), median(speedup[l]), max_dcl, max_dcd, rho_cl, rho_cd);
  }
  // The same runs counted at shallower criteria (a run stops only at the deepest).
  table +=
      "\nMedian cycles cold/warm on the way down, at each density-residual level:\n\n| model |";
  for (const double level : levels) table += " " + ResidualLevels::name(level) + " |";
  table += "\n|---|";
  for (std::size_t l = 0; l < levels.size(); ++l) table += "---|";
  table += "\n";
  for (const auto& model : models) {
    table += "| " + model.label + " |";
    nlohmann::json per_level;
    for (std::size_t l = 0; l < levels.size(); ++l) {
      const double m = median(level_ratio[model.label][ResidualLevels::name(levels[l])]);
      per_level[ResidualLevels::name(levels[l])] = number_or_null(m);
      table += fmt::format(" {:.2f} |", m);
    }
    over[model.label]["median_iteration_ratio_by_residual"] = per_level;
    table += "\n";
  }
  std::vector<double> cold_iterations, cold_time;
  for (const auto& e : per_case) {
    cold_iterations.push_back(e["cold"]["iterations"].get<double>());
    cold_time.push_back(e["cold"]["wall_time_s"].get<double>());
  }
  table += fmt::format("\nCold start: median {:.0f} cycles, {:.2f} s per case.\n",
                       median(cold_iterations), median(cold_time));
  write_text_atomically(output_dir / "comparison.md", table);
  results["cases"] = per_case;
  results["medians"] = over;
  results["cold_median_iterations"] = median(cold_iterations);
  results["cold_median_wall_time_s"] = median(cold_time);
  results["table"] = table;
  results["outputs"] = {{"comparison_csv", (output_dir / "comparison.csv").string()},
                        {"comparison_md", (output_dir / "comparison.md").string()}};
}

}  // namespace surrox::couplers
