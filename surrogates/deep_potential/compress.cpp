#include "surrogates/deep_potential/compress.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "surrogates/deep_potential/model_file.hpp"

namespace surrox::surrogates::deep_potential {

double min_neighbor_distance(const std::vector<SystemData>& systems) {
  double r2min = std::numeric_limits<double>::infinity();
  for (const SystemData& s : systems)
    for (const FrameEnvironment& e : s.env)
      for (std::size_t k = 0; k < e.neighbor.size(); ++k) {
        if (e.neighbor[k] < 0) continue;
        const double* r = &e.rij[3 * k];
        r2min = std::min(r2min, r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
      }
  return std::sqrt(r2min);
}

nlohmann::json compress_model_file(const std::filesystem::path& input,
                                   const std::filesystem::path& output,
                                   const CompressOptions& options) {
  nlohmann::json meta;
  SeE2aModel model = load_model(input, &meta);
  if (model->compressed()) throw InputError(input.string() + ": the model is compressed already");
  nlohmann::json report;
  double r_min = options.min_distance;
  if (r_min > 0) {
    report["min_distance_from"] = "--min-distance";
  } else {
    std::vector<std::filesystem::path> data = options.data;
    if (data.empty() && meta.contains("training") && meta["training"].contains("train"))
      for (const auto& p : meta["training"]["train"]) data.emplace_back(p.get<std::string>());
    if (data.empty())
      throw InputError(input.string() +
                       ": the model records no training data; give --data or --min-distance");
    for (const auto& p : data)
      if (!std::filesystem::exists(p))
        throw InputError(fmt::format("{}: data {} not found (give --data PATH or --min-distance R)",
                                     input.string(), p.string()));
    const auto systems = load_systems(data, model->config(), false);
    r_min = min_neighbor_distance(systems);
    if (!std::isfinite(r_min)) throw InputError("compress: the data has no neighbour pairs");
    nlohmann::json paths = nlohmann::json::array();
    for (const auto& p : data) paths.push_back(p.string());
    report["min_distance_from"] = paths;
  }
  const TableParams params = model->table_range(r_min, options.stride, options.extrapolate);
  model->compress(params);
  if (model->config().three_body.enabled()) {
    const TableParams params3 =
        model->three_body_table_range(r_min, options.stride, options.extrapolate);
    model->compress_three_body(params3);
    report["three_body_table"] = params3.to_json();
    spdlog::info(
        "three-body tables: x in [{:.4f}, {:.4f}] by {} and to {:.4f} by {} ({} intervals)",
        params3.lower, params3.upper, params3.stride, params3.end(), 10 * params3.stride,
        params3.intervals());
  }
  nlohmann::json training = meta.value("training", nlohmann::json::object());
  training["compressed_from"] = input.string();
  save_model(output, model, training);
  report["min_distance"] = r_min;
  report["table"] = params.to_json();
  report["table_end"] = params.node(params.intervals());
  report["tables"] = model->config().ntypes() * model->config().ntypes();
  report["model"] = output.string();
  spdlog::info(
      "compressed {} → {}: r_min {:.4f} Å, normalised s in [{:.4f}, {:.4f}] by {} and to {:.4f} "
      "by {} ({} intervals per table)",
      input.string(), output.string(), r_min, params.lower, params.upper, params.stride,
      params.end(), 10 * params.stride, params.intervals());
  return report;
}

}  // namespace surrox::surrogates::deep_potential
