#include "couplers/super_resolution/super_resolution.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <yaml-cpp/yaml.h>

#include <cmath>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "couplers/super_resolution/super_resolution_inference.hpp"
#include "couplers/super_resolution/super_resolution_report.hpp"
#include "couplers/super_resolution/super_resolution_runs.hpp"
#include "couplers/super_resolution/super_resolution_setup.hpp"
#include "couplers/super_resolution/super_resolution_statistics.hpp"

namespace surrox::couplers {
namespace {

// The case as fields.h5 stores it: the solver section of the grid the series lives on.
std::string series_case_yaml(const CaseNode& solver, const std::string& source) {
  YAML::Node root;
  root["solver"] = YAML::Clone(solver.yaml());
  root["super_resolution"] = source;
  YAML::Emitter out;
  out << root;
  return out.c_str();
}

nlohmann::json figures_json(const RbFlowStatistics& s) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, value] : s.figures) j[name] = value;
  return j;
}

// Relative errors of each figure against the fine run's, and of the profile (max |Δ⟨b⟩|).
nlohmann::json errors_json(const RbFlowStatistics& s, const RbFlowStatistics& fine) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, value] : s.figures) j[name] = value / fine.figures.at(name) - 1;
  double worst = 0;
  if (s.profile.size() == fine.profile.size())
    for (std::size_t k = 0; k < s.profile.size(); ++k)
      worst = std::max(worst, std::abs(s.profile[k] - fine.profile[k]));
  j["profile_max_abs_difference"] = s.profile.size() == fine.profile.size() ? worst : NAN;
  return j;
}

nlohmann::json spectrum_json(const RbFlowStatistics& s, long coarse_nyquist) {
  return {{"kinetic_share_above_coarse_nyquist",
           spectrum_share_above(s.kinetic_spectrum, coarse_nyquist)},
          {"buoyancy_share_above_coarse_nyquist",
           spectrum_share_above(s.buoyancy_spectrum, coarse_nyquist)}};
}

// The solver's own figures at the frames, with the same weights as the statistics: what the
// statistics of the fine run must reproduce (the wall and thermal Nusselt numbers exactly).
nlohmann::json solver_frame_figures(const RbSeries& run, const std::vector<double>& weights) {
  nlohmann::json j;
  for (const char* name :
       {"nu_bottom", "nu_top", "nu_volume", "nu_thermal", "nu_kinetic", "kinetic_energy"}) {
    double sum = 0;
    for (std::size_t t = 0; t < weights.size(); ++t)
      sum += weights[t] * run.frame_figures[t].at(name);
    j[name] = sum;
  }
  return j;
}

nlohmann::json solver_means(const RbSeries& run) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, value] : run.diagnostics)
    if (name.rfind("mean_", 0) == 0 || name == "averaged_time") j[name] = value;
  return j;
}

// The case's entry as it starts: what ran, with which model, on which grids.
nlohmann::json sr_case_entry(const SrSetup& setup, const CoupledCase& c, const SrCaseGrids& g) {
  nlohmann::json entry;
  entry["case"] = c.name;
  entry["parameters"] = c.parameters;
  entry["model"] = setup.model_path.string();
  entry["model_rayleigh"] = setup.model.rayleigh;
  entry["wall_closure"] = setup.close_walls;
  entry["rayleigh"] = g.rayleigh;
  entry["grids"] = {{"fine", {g.fine_nx, g.fine_nz}},
                    {"coarse", {g.coarse_nx, g.coarse_nz}},
                    {"fine_frames", g.fine_frames},
                    {"coarse_frames", g.coarse_frames},
                    {"frame_interval", g.frame_interval}};
  return entry;
}

// Each column's figures and spectra, and with a fine run (the first column) their errors
// against it and the wall Nusselt number's.
void add_sr_column_figures(const SrSetup& setup, const std::vector<NamedStatistics>& columns,
                           long coarse_nyquist, nlohmann::json& entry) {
  for (const auto& column : columns) {
    entry["statistics"][column.name] = figures_json(column.statistics);
    entry["spectra"][column.name] = spectrum_json(column.statistics, coarse_nyquist);
    if (setup.run_fine && column.name != "fine")
      entry["errors"][column.name] = errors_json(column.statistics, columns.front().statistics);
  }
  if (setup.run_fine) {
    if (setup.has_model) entry["nu_error"] = entry["errors"]["super_resolved"]["nu_wall"];
    entry["nu_error_trilinear"] = entry["errors"]["trilinear"]["nu_wall"];
  }
}

// comparison.csv, comparison.md, profile.csv and the spectra in dir, listed in outputs; the
// table also goes into the entry.
void write_sr_comparison(const std::filesystem::path& dir,
                         const std::vector<NamedStatistics>& columns, const nlohmann::json& cost,
                         nlohmann::json& entry, nlohmann::json& outputs) {
  write_statistics_csv(dir, columns);
  const std::string table = statistics_table(columns, cost);
  write_text_atomically(dir / "comparison.md", table);
  entry["table"] = table;
  outputs["comparison_csv"] = (dir / "comparison.csv").string();
  outputs["comparison_md"] = (dir / "comparison.md").string();
  outputs["profile_csv"] = (dir / "profile.csv").string();
  outputs["kinetic_spectrum_csv"] = (dir / "kinetic_spectrum.csv").string();
  outputs["buoyancy_spectrum_csv"] = (dir / "buoyancy_spectrum.csv").string();
}

nlohmann::json run_case(Runtime& runtime, SrSetup& setup, const CoupledCase& c,
                        const std::filesystem::path& dir) {
  const SrCaseGrids g = super_resolution_grids(setup, c);
  const auto& f = setup.model.downsampling;
  spdlog::info("super resolution: coarse {} × {} (every {} of the fine frames), fine {} × {}",
               g.coarse_nx, g.coarse_nz, f.t, g.fine_nx, g.fine_nz);
  const RbSeries coarse = run_rb_series(runtime, g.coarse, g.frame_interval * double(f.t));
  if (coarse.fields.size(1) != g.coarse_frames)
    throw Error(fmt::format("the coarse run wrote {} frames, expected {}", coarse.fields.size(1),
                            g.coarse_frames));
  spdlog::info("  coarse run: {} steps, {:.2f} s", coarse.steps, coarse.solve_s);
  const SuperResolved sr = super_resolve(setup.model, coarse.fields, setup.close_walls);
  spdlog::info("  inference: {} tiles, {} points, {:.2f} s (trilinear {:.2f} s)", sr.tiles,
               sr.points, sr.inference_s, sr.trilinear_s);
  std::vector<double> fine_times;
  for (long t = 0; t < g.fine_frames; ++t) fine_times.push_back(double(t) * g.frame_interval);

  nlohmann::json entry = sr_case_entry(setup, c, g);
  nlohmann::json outputs;
  if (setup.has_model) {
    entry["super_resolved_shape"] = sr.model.sizes().vec();
    outputs["super_resolved"] = write_rb_fields(
        {dir / "super_resolved", series_case_yaml(g.fine, "super-resolved coarse run"), true},
        sr.model, fine_times, g.lx);
  }
  outputs["coarse"] =
      write_rb_fields({dir / "coarse", series_case_yaml(g.coarse, "coarse run"), false},
                      coarse.fields, coarse.times, g.lx);

  const std::vector<double> weights = window_weights(fine_times, g.average_from);
  const std::vector<double> coarse_weights = window_weights(coarse.times, g.average_from);
  std::vector<NamedStatistics> columns;
  nlohmann::json cost = {{"coarse_solve_s", coarse.solve_s},
                         {"inference_s", sr.inference_s},
                         {"coarse_plus_inference_s", coarse.solve_s + sr.inference_s},
                         {"trilinear_s", sr.trilinear_s}};
  entry["coarse_steps"] = coarse.steps;
  entry["coarse_solver_means"] = solver_means(coarse);
  if (setup.run_fine) {
    const RbSeries fine = run_rb_series(runtime, g.fine, g.frame_interval);
    spdlog::info("  fine run: {} steps, {:.2f} s", fine.steps, fine.solve_s);
    if (fine.fields.sizes() != sr.trilinear.sizes())
      throw Error(fmt::format("the fine run wrote {} frames, the upsampled series has {}",
                              fine.fields.size(1), sr.trilinear.size(1)));
    outputs["fine"] = write_rb_fields({dir / "fine", series_case_yaml(g.fine, "fine run"), false},
                                      fine.fields, fine.times, g.lx);
    cost["fine_solve_s"] = fine.solve_s;
    cost["speedup"] = fine.solve_s / (coarse.solve_s + sr.inference_s);
    entry["fine_steps"] = fine.steps;
    entry["fine_solver_at_frames"] = solver_frame_figures(fine, weights);
    entry["fine_solver_means"] = solver_means(fine);
    columns.push_back(
        {"fine", rb_flow_statistics(fine.fields, weights, g.lx, g.rayleigh, g.prandtl)});
  }
  columns.push_back(
      {"coarse", rb_flow_statistics(coarse.fields, coarse_weights, g.lx, g.rayleigh, g.prandtl)});
  columns.push_back(
      {"trilinear", rb_flow_statistics(sr.trilinear, weights, g.lx, g.rayleigh, g.prandtl)});
  if (setup.has_model)
    columns.push_back(
        {"super_resolved", rb_flow_statistics(sr.model, weights, g.lx, g.rayleigh, g.prandtl)});
  entry["cost"] = cost;
  entry["average_window"] = {g.average_from, g.end_time};
  add_sr_column_figures(setup, columns, g.coarse_nx / 2, entry);
  write_sr_comparison(dir, columns, cost, entry, outputs);
  entry["outputs"] = outputs;
  if (setup.run_fine && setup.has_model)
    spdlog::info(
        "  {:.1f}× cheaper; Nu (walls) fine {:.4f}, super-resolved {:.4f} ({:+.2f} %), "
        "trilinear {:.4f}",
        cost["speedup"].get<double>(), columns[0].statistics.figures.at("nu_wall"),
        columns[3].statistics.figures.at("nu_wall"), 100 * entry["nu_error"].get<double>(),
        columns[2].statistics.figures.at("nu_wall"));
  return entry;
}

}  // namespace

Schema SuperResolutionCoupler::schema() {
  Schema s(
      "A coarse 2D Rayleigh–Bénard run super-resolved by a trained MeshfreeFlowNet, compared "
      "with the fine run of the case (`solver`: the fine grid, the model's training grid; the "
      "coarse grid divides its cells by the model's factors). Writes the super-resolved series "
      "(VTK + HDF5), comparison.md/.csv, profile.csv and the spectra.");
  s.string("model",
           "model.pt of the super_resolution family written by `surrox train` (relative to the "
           "case file); empty: no model, the trilinear baseline alone on `factors`")
      .fallback("\"\"");
  s.integers("factors",
             "without a model: the downsampling factors [t, z, x] (a model brings its own)")
      .fallback("[4, 8, 8]");
  s.real("frame_interval",
         "without a model: the fine run's frame interval (a model brings its own)")
      .fallback("0.25")
      .above(0);
  s.boolean("fine_run",
            "run the fine solve too and compare cost and statistics with it (false: the coarse "
            "run and its super-resolution only)")
      .fallback("true");
  s.boolean("wall_closure",
            "the fine rows between each wall and the first coarse cell centre (outside every "
            "model tile): linear from the wall's value (b = ±1/2, u = w = 0) to the value at "
            "that centre, for the model and trilinear alike (false: the tiles' linear "
            "extrapolation)")
      .fallback("true");
  return s;
}

void SuperResolutionCoupler::run(Runtime& runtime, const CaseNode& section,
                                 const std::vector<CoupledCase>& cases,
                                 const std::filesystem::path& output_dir, nlohmann::json& results) {
  SrSetup setup = load_super_resolution_model(runtime, section);
  for (const auto& c : cases) super_resolution_grids(setup, c);  // every case fits: exit 2 first
  nlohmann::json per_case = nlohmann::json::array();
  for (const auto& c : cases) {
    spdlog::info("super resolution: case {}", c.name);
    per_case.push_back(
        run_case(runtime, setup, c, cases.size() == 1 ? output_dir : output_dir / c.name));
  }
  results["cases"] = per_case;
  if (per_case.size() == 1) results["table"] = per_case[0]["table"];
}

}  // namespace surrox::couplers
