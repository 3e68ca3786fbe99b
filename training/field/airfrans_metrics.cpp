#include "training/field/airfrans_metrics.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/error.hpp"
#include "core/statistics.hpp"
#include "io/hdf5_sweep.hpp"
#include "training/field/airfoil_wall_forces.hpp"

namespace surrox::training {

namespace {

// AirfRANS's full task (Bonnet et al. 2022, Table 2; Transolver: Wu et al. 2024) and the targets
// surrox's RANS field surrogate is held to (docs/validation/rans_surrogate.md). A missing
// published value is NaN.
struct Reference {
  const char* key;
  const char* label;
  double mlp, transolver, target;
  bool higher_is_better;
};
constexpr double kNone = NAN;
const Reference kReferences[] = {
    {"cl_relative_error", "CL relative error", 0.211, 0.103, 0.10, false},
    {"spearman_cl", "Spearman ρ of CL", 0.9932, 0.9978, 0.99, true},
    {"cd_relative_error", "CD relative error", 6.18, kNone, 0.5, false},
    {"spearman_cd", "Spearman ρ of CD", 0.250, kNone, 0.8, true},
};

long channel_of(const std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : static_cast<long>(it - names.begin());
}

// A solver key of the case: its swept value when it was swept, else the sweep's base case.
double solver_value(const io::SweepDatasetReader& reader, const YAML::Node& solver,
                    const std::string& key, std::size_t index, double fallback) {
  const auto names = reader.parameter_names();
  if (std::find(names.begin(), names.end(), "solver." + key) != names.end())
    return reader.parameter("solver." + key)[index];
  // reset(), not operator=: assigning a YAML::Node writes into the node it refers to.
  YAML::Node node;
  node.reset(solver);
  std::size_t start = 0;
  while (node && node.IsMap()) {
    const std::size_t dot = key.find('.', start);
    const YAML::Node& parent = node;  // const operator[]: a lookup that adds no key
    const YAML::Node child =
        parent[key.substr(start, dot == std::string::npos ? std::string::npos : dot - start)];
    node.reset(child);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return node && node.IsScalar() ? node.as<double>() : fallback;
}

// The case's wall row from one field tensor [cells, C] and the dataset's grid.
WallRow wall_row(const torch::Tensor& fields, const io::HostArray& points, long ni,
                 const long channels[4], bool pressure_is_cp, double p_inf) {
  const torch::Tensor f = fields.to(torch::kFloat64).contiguous();
  const auto a = f.accessor<double, 2>();
  WallRow w;
  for (long i = 0; i <= ni; ++i) {
    w.x0.push_back(points(i, 0));
    w.y0.push_back(points(i, 1));
    w.x1.push_back(points(i + ni + 1, 0));
    w.y1.push_back(points(i + ni + 1, 1));
  }
  for (long i = 0; i < ni; ++i) {
    w.rho.push_back(a[i][channels[0]]);
    w.u.push_back(a[i][channels[1]]);
    w.v.push_back(a[i][channels[2]]);
    const double p = a[i][channels[3]];
    w.p.push_back(pressure_is_cp ? p_inf + 0.5 * p : p);
  }
  return w;
}

std::string number(double v) { return std::isfinite(v) ? fmt::format("{:.4g}", v) : "—"; }

}  // namespace

double mean_relative_error(const std::vector<double>& predicted, const std::vector<double>& truth) {
  if (predicted.size() != truth.size() || truth.empty())
    throw InputError(fmt::format("relative error: {} predictions for {} true values",
                                 predicted.size(), truth.size()));
  double sum = 0;
  for (std::size_t k = 0; k < truth.size(); ++k)
    sum += std::abs(predicted[k] - truth[k]) / std::abs(truth[k]);
  return sum / static_cast<double>(truth.size());
}

namespace {

// What the sweep holds for every case: the grid's size, where each case is, the solver's own
// forces and the airfoils' names, read once in this order.
struct AirfransSweepCases {
  long ni = 0, nj = 0;
  std::map<std::string, std::size_t> index;
  bool has_solver_forces = false;
  std::vector<double> solver_cl, solver_cd;
  bool named = false;
  std::vector<std::string> airfoils;
};

AirfransSweepCases read_airfrans_sweep_cases(const io::SweepDatasetReader& reader) {
  AirfransSweepCases s;
  const auto dims = reader.dimensions();
  s.ni = dims[0] - 1, s.nj = dims[1] - 1;
  const auto case_names = reader.case_names();
  for (std::size_t k = 0; k < case_names.size(); ++k) s.index[case_names[k]] = k;
  const auto results = reader.result_names();
  s.has_solver_forces = std::find(results.begin(), results.end(), "cl") != results.end() &&
                        std::find(results.begin(), results.end(), "cd") != results.end();
  s.solver_cl = s.has_solver_forces ? reader.result("cl") : std::vector<double>{};
  s.solver_cd = s.has_solver_forces ? reader.result("cd") : std::vector<double>{};
  const auto parameter_names = reader.parameter_names();
  s.named = std::find(parameter_names.begin(), parameter_names.end(),
                      "solver.mesh.airfoil.digits") != parameter_names.end();
  s.airfoils =
      s.named ? reader.parameter_text("solver.mesh.airfoil.digits") : std::vector<std::string>{};
  return s;
}

// The free stream of case k: its swept values, else the sweep's base case.
FreeStream airfrans_free_stream(const io::SweepDatasetReader& reader, const YAML::Node& solver,
                                const std::string& equations, std::size_t k) {
  FreeStream stream;
  stream.mach = solver_value(reader, solver, "mach", k, 0.5);
  stream.alpha_deg = solver_value(reader, solver, "alpha_deg", k, 0.0);
  if (equations != "euler") stream.reynolds = solver_value(reader, solver, "reynolds", k, 0.0);
  if (equations == "rans")
    stream.sutherland_ratio =
        110.4 / solver_value(reader, solver, "turbulence.freestream_temperature", k, 300.0);
  return stream;
}

// The forces integrated per case, predicted and true, and each case's row of results.
struct AirfransCaseForces {
  std::vector<double> cl_p, cl_t, cd_p, cd_t;
  nlohmann::json per_case = nlohmann::json::array();
  double integration_cl = 0, integration_cd = 0;  // largest |truth integration − solver|
};

// The row of case c (sweep index k), with its coefficients added to the forces' lists.
nlohmann::json airfrans_case_row(const AirfransInput& in, std::size_t c, std::size_t k,
                                 const AirfransSweepCases& s, const FreeStream& stream,
                                 const WallRow& pw, const WallRow& tw, double p_inf,
                                 AirfransCaseForces& forces) {
  // A prediction with a non-positive density in a wall cell has no forces (NaN, and so
  // the scores): it is the model's failure, not bad input.
  ForceCoefficients pred{NAN, NAN, NAN, NAN};
  try {
    pred = wall_force_coefficients(pw, stream);
  } catch (const InputError&) {
  }
  const ForceCoefficients truth = wall_force_coefficients(tw, stream);
  // The wall cells' Cp (for figures), at the wall faces' midpoints.
  std::vector<double> wall_x, cp_pred, cp_truth;
  for (long i = 0; i < s.ni; ++i) {
    wall_x.push_back(0.5 * (pw.x0[i] + pw.x0[i + 1]));
    cp_pred.push_back(2 * (pw.p[i] - p_inf));
    cp_truth.push_back(2 * (tw.p[i] - p_inf));
  }
  forces.cl_p.push_back(pred.cl), forces.cl_t.push_back(truth.cl);
  forces.cd_p.push_back(pred.cd), forces.cd_t.push_back(truth.cd);
  nlohmann::json row{{"case", in.cases[c]},
                     {"alpha_deg", stream.alpha_deg},
                     {"reynolds", stream.reynolds},
                     {"cl_predicted", pred.cl},
                     {"cl_cfd", truth.cl},
                     {"cd_predicted", pred.cd},
                     {"cd_cfd", truth.cd},
                     {"cd_pressure_predicted", pred.cd_pressure},
                     {"cd_pressure_cfd", truth.cd_pressure},
                     {"cd_friction_predicted", pred.cd_friction},
                     {"cd_friction_cfd", truth.cd_friction},
                     {"wall_x", wall_x},
                     {"wall_cp_predicted", cp_pred},
                     {"wall_cp_cfd", cp_truth}};
  if (s.named) row["naca"] = s.airfoils[k];
  if (s.has_solver_forces) {
    row["cl_solver"] = s.solver_cl[k];
    row["cd_solver"] = s.solver_cd[k];
    forces.integration_cl = std::max(forces.integration_cl, std::abs(truth.cl - s.solver_cl[k]));
    forces.integration_cd = std::max(
        forces.integration_cd, std::abs(truth.cd - s.solver_cd[k]) / std::abs(s.solver_cd[k]));
  }
  return row;
}

// Every case's forces; false (and the cases not all scored) when a case is not on the
// dataset's grid. InputError on a case the sweep does not hold.
bool airfrans_case_forces(const AirfransInput& in, const io::SweepDatasetReader& reader,
                          const YAML::Node& solver, const std::string& equations,
                          const AirfransSweepCases& s, const long channels[4], bool pressure_is_cp,
                          AirfransCaseForces& forces) {
  for (std::size_t c = 0; c < in.cases.size(); ++c) {
    const auto found = s.index.find(in.cases[c]);
    if (found == s.index.end())
      throw InputError(in.sweep.string() + ": no case '" + in.cases[c] + "'");
    const std::size_t k = found->second;
    if (in.predicted[c].size(0) != s.ni * s.nj) return false;
    const FreeStream stream = airfrans_free_stream(reader, solver, equations, k);
    const double p_inf = 1 / (1.4 * stream.mach * stream.mach);
    const io::HostArray points = reader.points(k);
    const WallRow pw = wall_row(in.predicted[c], points, s.ni, channels, pressure_is_cp, p_inf);
    const WallRow tw = wall_row(in.truth[c], points, s.ni, channels, pressure_is_cp, p_inf);
    forces.per_case.push_back(airfrans_case_row(in, c, k, s, stream, pw, tw, p_inf, forces));
  }
  return true;
}

// The MSE of the normalised fields per channel and their mean, and of the normalised pressure
// channel p on the wall cells.
struct AirfransFieldErrors {
  nlohmann::json volume = nlohmann::json::object();
  double volume_mean = 0, surface = 0;
};

AirfransFieldErrors airfrans_field_errors(const AirfransInput& in, long ni, long nj, long p) {
  // Normalised fields: the model's own normalisation (the training cases' mean and scale).
  const auto& names = in.outputs.names;
  AirfransFieldErrors e;
  torch::NoGradGuard no_grad;
  const auto pn = in.outputs.apply(torch::cat(in.predicted).to(torch::kFloat64));
  const auto tn = in.outputs.apply(torch::cat(in.truth).to(torch::kFloat64));
  const auto squared = (pn - tn).pow(2);
  for (std::size_t ch = 0; ch < names.size(); ++ch) {
    const double mse = squared.select(1, static_cast<long>(ch)).mean().item<double>();
    e.volume[names[ch]] = mse;
    e.volume_mean += mse / static_cast<double>(names.size());
  }
  // The wall cells (j = 0) are each case's first ni rows.
  std::vector<torch::Tensor> wall;
  for (std::size_t c = 0; c < in.cases.size(); ++c)
    wall.push_back(
        squared.slice(0, static_cast<long>(c) * ni * nj, static_cast<long>(c) * ni * nj + ni));
  e.surface = torch::cat(wall).select(1, p).mean().item<double>();
  return e;
}

// The coefficients' relative errors (mean and median) and rank correlations.
void add_airfrans_force_scores(const AirfransCaseForces& f, bool has_solver_forces,
                               nlohmann::json& out) {
  out["cl_relative_error"] = mean_relative_error(f.cl_p, f.cl_t);
  out["cd_relative_error"] = mean_relative_error(f.cd_p, f.cd_t);
  std::vector<double> rel_cl, rel_cd;
  for (std::size_t c = 0; c < f.cl_t.size(); ++c) {
    rel_cl.push_back(std::abs(f.cl_p[c] - f.cl_t[c]) / std::abs(f.cl_t[c]));
    rel_cd.push_back(std::abs(f.cd_p[c] - f.cd_t[c]) / std::abs(f.cd_t[c]));
  }
  out["cl_relative_error_median"] = median(rel_cl);
  out["cd_relative_error_median"] = median(rel_cd);
  out["spearman_cl"] = spearman(f.cl_p, f.cl_t);
  out["spearman_cd"] = spearman(f.cd_p, f.cd_t);
  if (has_solver_forces)
    out["integration_vs_solver"] = {{"cl_max_abs_difference", f.integration_cl},
                                    {"cd_max_relative_difference", f.integration_cd}};
}

// The published values and the targets beside the scores, and which targets are met.
void add_airfrans_references(nlohmann::json& out) {
  nlohmann::json published = nlohmann::json::object(), targets = nlohmann::json::object(),
                 met = nlohmann::json::object();
  for (const auto& r : kReferences) {
    published[r.key] = {
        {"mlp", std::isfinite(r.mlp) ? nlohmann::json(r.mlp) : nullptr},
        {"transolver", std::isfinite(r.transolver) ? nlohmann::json(r.transolver) : nullptr}};
    targets[r.key] = r.target;
    const double value = out[r.key].get<double>();
    met[r.key] = r.higher_is_better ? value >= r.target : value <= r.target;
  }
  out["published_airfrans"] = published;
  out["targets"] = targets;
  out["targets_met"] = met;
}

}  // namespace

nlohmann::json airfrans_metrics(const AirfransInput& in) {
  const auto& names = in.outputs.names;
  const long rho = channel_of(names, "density"), u = channel_of(names, "velocity[0]"),
             v = channel_of(names, "velocity[1]");
  long p = channel_of(names, "pressure");
  const bool pressure_is_cp = p < 0;
  if (pressure_is_cp) p = channel_of(names, "Cp");
  if (rho < 0 || u < 0 || v < 0 || p < 0)
    return {{"skipped",
             "the model does not predict density, velocity[0], velocity[1] and pressure (or Cp)"}};
  const io::SweepDatasetReader reader(in.sweep);
  YAML::Node base;
  try {
    base = YAML::Load(reader.sweep_yaml());
  } catch (const YAML::Exception&) {
    // not a case file: not an airfoil sweep
  }
  const YAML::Node solver = base.IsMap() ? base["solver"] : YAML::Node();
  if (!solver.IsMap() || !solver["type"] || solver["type"].as<std::string>() != "airfoil" ||
      reader.kind() != io::MeshKind::kStructured)
    return {{"skipped", "the dataset is not a sweep of the airfoil solver"}};
  const std::string equations =
      solver["equations"] ? solver["equations"].as<std::string>() : std::string("euler");
  const AirfransSweepCases s = read_airfrans_sweep_cases(reader);

  const long channels[4] = {rho, u, v, p};
  AirfransCaseForces forces;
  if (!airfrans_case_forces(in, reader, solver, equations, s, channels, pressure_is_cp, forces))
    return {{"skipped", "the cases are not on the dataset's grid"}};

  const AirfransFieldErrors errors = airfrans_field_errors(in, s.ni, s.nj, p);
  nlohmann::json out;
  out["cases"] = in.cases.size();
  out["equations"] = equations;
  out["volume_mse"] = errors.volume;
  out["volume_mse_mean"] = errors.volume_mean;
  out["surface_pressure_mse"] = errors.surface;
  out["surface_pressure_channel"] = names[static_cast<std::size_t>(p)];
  add_airfrans_force_scores(forces, s.has_solver_forces, out);
  add_airfrans_references(out);
  out["per_case"] = forces.per_case;
  return out;
}

std::string airfrans_table(const nlohmann::json& m) {
  if (m.contains("skipped"))
    return "AirfRANS metrics skipped: " + m["skipped"].get<std::string>() + "\n";
  std::string t = fmt::format(
      "AirfRANS metrics on {} held-out cases (forces integrated from the predicted fields)\n\n"
      "| metric | this model | AirfRANS MLP | Transolver | target | met |\n|---|---|---|---|---|---|\n",
      m["cases"].get<long>());
  for (const auto& r : kReferences)
    t +=
        fmt::format("| {} | {} | {} | {} | {} {} | {} |\n", r.label, number(m[r.key].get<double>()),
                    number(r.mlp), number(r.transolver), r.higher_is_better ? "≥" : "≤",
                    number(r.target), m["targets_met"][r.key].get<bool>() ? "yes" : "no");
  t += fmt::format("\nMedian relative error: CL {}, CD {}. MSE of the normalised fields:",
                   number(m["cl_relative_error_median"].get<double>()),
                   number(m["cd_relative_error_median"].get<double>()));
  for (const auto& [name, value] : m["volume_mse"].items())
    t += fmt::format(" {} {},", name, number(value.get<double>()));
  t += fmt::format(" mean {}; surface {} {}.\n", number(m["volume_mse_mean"].get<double>()),
                   m["surface_pressure_channel"].get<std::string>(),
                   number(m["surface_pressure_mse"].get<double>()));
  if (m.contains("integration_vs_solver"))
    t += fmt::format(
        "The integration of the CFD fields against the solver's own forces: CL within {}, CD "
        "within {} (relative).\n",
        number(m["integration_vs_solver"]["cl_max_abs_difference"].get<double>()),
        number(m["integration_vs_solver"]["cd_max_relative_difference"].get<double>()));
  return t;
}

}  // namespace surrox::training
