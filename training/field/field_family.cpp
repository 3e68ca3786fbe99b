#include "training/field/field_family.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/yaml_json.hpp"
#include "surrogates/networks.hpp"
#include "surrogates/surrogate.hpp"
#include "training/collective_data_parallel.hpp"
#include "training/field/airfrans_metrics.hpp"
#include "training/field/field_baselines.hpp"
#include "training/field/field_data_sources.hpp"
#include "training/field/field_dataset.hpp"
#include "training/field/field_errors.hpp"
#include "training/field/field_prediction.hpp"
#include "training/loss_plot.hpp"
#include "training/trainer.hpp"

namespace surrox::training {

namespace {

Schema field_config_schema() {
  Schema root(
      "A training config for `surrox train`, family `field`: per-cell (or per-point) fields of a "
      "sweep dataset or of a collection of VTK files or OpenFOAM case folders, the network and "
      "how to train it.");
  root.section("runtime", runtime_config_schema(), "threads and logging");
  root.component("data", field_data_sources(),
                 "the data and its channels: a sweep dataset (type sweep, the default) or a "
                 "collection of VTK/ParaView files or OpenFOAM case folders (type collection)")
      .default_type(kDefaultFieldDataSource);
  root.component("network", surrogates::networks(), "the network architecture").default_type("mlp");
  root.section("training", Trainer::schema(), "optimizer, schedule, loss, epochs, checkpoints");
  return root;
}

// The model's predictions of a split in physical units, [rows, C] or [cases, C, nj, ni].
torch::Tensor predict_split(surrogates::Surrogate& model, const FieldDataset& data,
                            const TensorSet& split) {
  torch::NoGradGuard no_grad;
  return predict_field_rows(model, data.inputs.invert(split.inputs));
}

nlohmann::json by_channel(const std::vector<std::string>& names,
                          const std::vector<double>& values) {
  nlohmann::json out = nlohmann::json::object();
  for (std::size_t c = 0; c < names.size(); ++c) out[names[c]] = values[c];
  return out;
}

std::string error_cell(double e) {
  return std::isfinite(e) ? fmt::format("{:.6e}", e) : "undefined";
}

// Output channels constant over the training split (Uz of a 2D case): normalised with scale 1
// (field_dataset.cpp), so they do not break training, but there is nothing to learn in them and
// their relative errors are undefined (field_errors.hpp); said at training and in summary.json.
void report_constant_outputs(const FieldDataset& data, nlohmann::json& results) {
  const torch::Tensor t = data.train.targets;
  const torch::Tensor per_channel = t.transpose(0, 1).reshape({t.size(1), -1});
  std::vector<std::string> constant;
  for (long c = 0; c < per_channel.size(0); ++c)
    if (per_channel[c].std(/*unbiased=*/false).item<double>() <= 1e-12)
      constant.push_back(data.outputs.names[static_cast<std::size_t>(c)]);
  results["constant_output_channels"] = constant;
  if (!constant.empty())
    spdlog::warn(
        "data: output channel(s) {} are constant over the training cases: nothing to "
        "learn there, and their relative errors will be undefined",
        fmt::join(constant, ", "));
}

class FieldFamily final : public SurrogateFamily {
 public:
  void train(const TrainRequest& request, nlohmann::json& results) override;
  void evaluate(const EvaluateRequest& request, nlohmann::json& results) override;
  void predict(const PredictRequest& request, nlohmann::json& results) override {
    predict_field_case(request, results);
  }
};

void FieldFamily::train(const TrainRequest& request, nlohmann::json& results) {
  const io::CaseFile& config = request.config;
  const auto& output_dir = request.output_dir;
  const CaseNode network_node = config.root.section("network");
  const CaseNode training_node = config.root.section("training");
  const CaseNode data_node = config.root.section("data");
  const surrogates::GridSamples samples =
      surrogates::grid_samples_of(network_node.type(), network_node.context("type"));
  const std::string& samples_name =
      surrogates::grid_samples_names().at(static_cast<std::size_t>(samples));

  const FieldDataset data = field_data_sources()
                                .at(data_node.type(), data_node.context("type"))
                                .make()
                                ->load(data_node, samples);
  spdlog::info(
      "data: {} training, {} validation, {} test cases; {} inputs → {} outputs (samples: {})",
      data.train_cases.size(), data.validation_cases.size(), data.test_cases.size(),
      data.inputs.names.size(), data.outputs.names.size(), samples_name);
  if (!data.unconverged_cases_left_out.empty())
    spdlog::warn(
        "data: left out {} unconverged case(s) ({}); set data.include_unconverged: true to keep them",
        data.unconverged_cases_left_out.size(), fmt::join(data.unconverged_cases_left_out, ", "));
  if (!data.unconverged_cases_kept.empty())
    spdlog::warn(
        "data: training on {} unconverged case(s) ({}) because include_unconverged is true",
        data.unconverged_cases_kept.size(), fmt::join(data.unconverged_cases_kept, ", "));

  report_constant_outputs(data, results);

  torch::manual_seed(static_cast<std::uint64_t>(training_node.integer("seed")));
  const auto& entry = surrogates::networks().at(network_node.type(), network_node.context("type"));
  std::shared_ptr<surrogates::Network> network(
      entry.make(network_node, static_cast<long>(data.inputs.names.size()),
                 static_cast<long>(data.outputs.names.size())));
  network->to(data.train.inputs.scalar_type());

  Trainer trainer(training_node, collective_data_parallel(request.runtime.comm()));
  const TrainResult fit = trainer.fit(*network, data.train, data.validation, output_dir,
                                      request.resume, request.max_epochs);

  surrogates::SurrogateMetadata metadata;
  metadata.network = network_node.type();
  YAML::Emitter network_yaml;
  network_yaml << YAML::Flow << network_node.yaml();
  metadata.network_yaml = network_yaml.c_str();
  metadata.input_domains = data.input_domains;
  metadata.inputs = data.inputs;
  metadata.outputs = data.outputs;
  metadata.output_scaling = data.output_scaling;
  metadata.training = {{"config", request.config_path},
                       {"epochs", fit.history.size()},
                       {"best_epoch", fit.best_epoch},
                       {"best_validation_loss", fit.best_validation_loss},
                       {"train_cases", data.train_cases},
                       {"validation_cases", data.validation_cases},
                       {"test_cases", data.test_cases},
                       {"data", yaml_to_json(data_node.yaml())}};  // for `surrox evaluate`
  surrogates::Surrogate model(network, metadata);

  results["network"] = metadata.network;
  results["samples"] = samples_name;
  results["cases"] = {{"train", data.train_cases.size()},
                      {"validation", data.validation_cases.size()},
                      {"test", data.test_cases.size()}};
  results["unconverged_cases"] = {{"left_out", data.unconverged_cases_left_out},
                                  {"kept", data.unconverged_cases_kept}};
  results["rows"] = {{"train", data.train.rows()},
                     {"validation", data.validation.rows()},
                     {"test", data.test.rows()}};
  results["parameters"] = [&] {
    long n = 0;
    for (const auto& p : network->parameters()) n += p.numel();
    return n;
  }();
  results["epochs_trained"] = fit.history.size();
  results["best_epoch"] = fit.best_epoch;
  results["best_validation_loss"] = fit.best_validation_loss;
  results["final_train_loss"] = fit.history.empty() ? NAN : fit.history.back().train_loss;
  results["stopped_early"] = fit.stopped_early;
  results["samples_per_second"] = fit.samples_per_second;
  results["data_parallel_ranks"] = request.runtime.size();
  results["test_loss"] = trainer.evaluate(*network, data.test);
  results["test_relative_l2"] =
      data.test.rows() == 0
          ? nlohmann::json::object()
          : by_channel(data.outputs.names, relative_l2(predict_split(model, data, data.test),
                                                       data.physical_targets(data.test)));
  results["finished"] =
      static_cast<long>(fit.history.size()) >= training_node.integer("epochs") || fit.stopped_early;
  if (request.runtime.root()) {
    model.save(output_dir / "model.pt");
    record_training_outputs(output_dir, results);
  }
}

// Every case of request.data, read as the model's training data section reads (same channels,
// parameters, dtype and convergence rule) and normalised with the model's statistics.
FieldDataset load_field_evaluation_data(const EvaluateRequest& request,
                                        const surrogates::SurrogateMetadata& metadata,
                                        const FieldModelData& recorded) {
  FieldDataset data;
  with_field_model_data("evaluate", request.model, request.data, recorded,
                        [&](const FieldDataSource& source, const CaseNode& section) {
                          const auto samples = surrogates::takes_whole_grids(metadata.input_domains)
                                                   ? surrogates::GridSamples::kWholeGrid
                                                   : surrogates::GridSamples::kRowPerCell;
                          data =
                              source.load_all(section, samples, metadata.inputs, metadata.outputs);
                        });
  return data;
}

// Per case [rows, C]: the rows of a case are contiguous (a row per cell or point; cases of a
// file collection differ in size) or the case is its own row (whole grids).
std::vector<torch::Tensor> field_rows_per_case(const torch::Tensor& t, const FieldDataset& data,
                                               long cases) {
  std::vector<torch::Tensor> parts;
  if (surrogates::takes_whole_grids(data.input_domains)) {
    for (long k = 0; k < cases; ++k) parts.push_back(t[k].reshape({t.size(1), -1}).t());
    return parts;
  }
  std::vector<long> rows = data.test_case_rows;
  if (rows.empty()) rows.assign(static_cast<std::size_t>(cases), t.size(0) / cases);
  long first = 0;
  for (long n : rows) {
    parts.push_back(t.slice(0, first, first + n));
    first += n;
  }
  return parts;
}

// Each case's relative L2 error per channel, [case][channel].
std::vector<std::vector<double>> case_errors(const std::vector<torch::Tensor>& p_cases,
                                             const std::vector<torch::Tensor>& t_cases) {
  std::vector<std::vector<double>> errors;
  for (std::size_t k = 0; k < t_cases.size(); ++k)
    errors.push_back(relative_l2(p_cases[k], t_cases[k]));
  return errors;
}

// Over the cases `chosen` (all when empty): the median and the largest per channel.
void case_medians(const std::vector<std::vector<double>>& errors, const std::vector<long>& chosen,
                  long channels, std::vector<double>& medians, std::vector<double>& worst) {
  for (long c = 0; c < channels; ++c) {
    std::vector<double> column;
    for (std::size_t k = 0; k < errors.size(); ++k)
      if (chosen.empty() || std::count(chosen.begin(), chosen.end(), static_cast<long>(k)))
        column.push_back(errors[k][static_cast<std::size_t>(c)]);
    medians.push_back(median_of(column));
    worst.push_back(max_of(column));
  }
}

// case_errors.csv's text: each case's relative L2 error per channel, then the baselines' under
// `nearest:CHANNEL` and `idwK:CHANNEL` when they were computed.
std::string field_case_errors_csv(const FieldDataset& data,
                                  const std::vector<std::vector<double>>& model,
                                  const std::vector<std::vector<double>>& nearest,
                                  const std::vector<std::vector<double>>& interpolated,
                                  long neighbours) {
  const std::vector<std::string>& channels = data.outputs.names;
  std::ostringstream csv;
  csv << "case," << fmt::format("{}", fmt::join(channels, ","));
  if (!nearest.empty())
    for (const char* prefix : {"nearest", "idw"})
      for (const auto& c : channels)
        csv << "," << prefix << (prefix[0] == 'i' ? std::to_string(neighbours) : "") << ":" << c;
  csv << "\n";
  for (std::size_t k = 0; k < model.size(); ++k) {
    csv << data.test_cases[k];
    for (double e : model[k]) csv << "," << error_cell(e);
    if (!nearest.empty()) {
      for (double e : nearest[k]) csv << "," << error_cell(e);
      for (double e : interpolated[k]) csv << "," << error_cell(e);
    }
    csv << "\n";
  }
  return csv.str();
}

// The relative L2 errors per group of cases: those the model trained on (training or
// validation), those its training held out (test) and those it never saw.
nlohmann::json field_errors_by_case_group(const surrogates::SurrogateMetadata& metadata,
                                          const FieldDataset& data,
                                          const std::vector<torch::Tensor>& p_cases,
                                          const std::vector<torch::Tensor>& t_cases) {
  const std::vector<std::string>& channels = data.outputs.names;
  const long cases = static_cast<long>(data.test_cases.size());
  // Split by what the model saw: errors on its own test cases are what training reported;
  // errors on cases it trained on are not evidence of generalisation.
  const auto listed = [&](const char* key) {
    std::set<std::string> names;
    if (metadata.training.contains(key))
      for (const auto& n : metadata.training[key]) names.insert(n.get<std::string>());
    return names;
  };
  const std::set<std::string> trained = [&] {
    auto t = listed("train_cases");
    const auto v = listed("validation_cases");
    t.insert(v.begin(), v.end());
    return t;
  }();
  const std::set<std::string> held_out = listed("test_cases");
  std::map<std::string, std::vector<long>> groups;
  for (long k = 0; k < cases; ++k) {
    const auto& name = data.test_cases[static_cast<std::size_t>(k)];
    groups[trained.count(name)    ? "trained_on"
           : held_out.count(name) ? "held_out_in_training"
                                  : "unseen"]
        .push_back(k);
  }
  nlohmann::json by_group = nlohmann::json::object();
  for (const auto& [group, members] : groups) {
    const auto rows = [&](const std::vector<torch::Tensor>& parts) {  // the group's [rows, C]
      std::vector<torch::Tensor> chosen;
      for (long k : members) chosen.push_back(parts[static_cast<std::size_t>(k)]);
      return torch::cat(chosen);
    };
    by_group[group] = {
        {"cases", members.size()},
        {"relative_l2", by_channel(channels, relative_l2(rows(p_cases), rows(t_cases)))}};
  }
  return by_group;
}

// The baselines beside the model (field_baselines.hpp), compared on the cases the model did not
// train on (all cases, each without itself, when it trained on every one).
struct FieldBaselineReport {
  nlohmann::json summary;
  std::vector<std::vector<double>> nearest, interpolated;  // [case][channel]; empty: skipped
  std::string table;                                       // baselines.md
};

FieldBaselineReport field_baseline_report(const EvaluateRequest& request,
                                          const surrogates::SurrogateMetadata& metadata,
                                          const FieldDataset& data,
                                          const std::vector<torch::Tensor>& p_cases,
                                          const std::vector<torch::Tensor>& t_cases,
                                          const std::vector<std::vector<double>>& model_errors) {
  const std::vector<std::string>& channels = data.outputs.names;
  const long cases = static_cast<long>(t_cases.size());
  std::set<std::string> trained;
  for (const char* key : {"train_cases", "validation_cases"})
    if (metadata.training.contains(key))
      for (const auto& n : metadata.training[key]) trained.insert(n.get<std::string>());
  FieldBaselineInputs in;
  in.inputs = field_rows_per_case(data.inputs.invert(data.test.inputs), data, cases);
  // The baselines combine the scaled fields (U/speed, ...) and scale them to each case, as a
  // practitioner who knows the similarity would.
  const surrogates::OutputScaling& scaling = data.output_scaling;
  for (long k = 0; k < cases; ++k)
    in.outputs.push_back(scaling.to_scaled(t_cases[static_cast<std::size_t>(k)],
                                           in.inputs[static_cast<std::size_t>(k)]));
  in.neighbours = request.baseline_neighbours;
  in.structured = surrogates::find_input<surrogates::StructuredGridInputs>(data.input_domains);
  std::vector<long> compared;
  for (long k = 0; k < cases; ++k) {
    in.training.push_back(trained.count(data.test_cases[static_cast<std::size_t>(k)]) > 0);
    if (!in.training.back()) compared.push_back(k);
  }
  FieldBaselineReport report;
  FieldBaselines b = field_baselines(in, data.inputs.names);
  for (std::size_t k = 0; k < b.nearest.size(); ++k) {
    b.nearest[k] = scaling.to_physical(b.nearest[k], in.inputs[k]);
    b.interpolated[k] = scaling.to_physical(b.interpolated[k], in.inputs[k]);
  }
  if (!b.skipped.empty()) {
    spdlog::warn("no baselines: {}", b.skipped);
    report.summary = {{"skipped", b.skipped}};
    return report;
  }
  report.nearest = case_errors(b.nearest, t_cases);
  report.interpolated = case_errors(b.interpolated, t_cases);
  const long nc = static_cast<long>(channels.size());
  std::vector<double> model_median, nearest_median, idw_median, unused;
  case_medians(model_errors, compared, nc, model_median, unused);
  case_medians(report.nearest, compared, nc, nearest_median, unused);
  case_medians(report.interpolated, compared, nc, idw_median, unused);
  std::vector<double> ratio;
  std::ostringstream table;
  const std::string idw = fmt::format("idw{}", request.baseline_neighbours);
  table << fmt::format(
      "Median relative L2 error over {}: the model beside the nearest training case "
      "and inverse-distance interpolation of the {} nearest (parameters: {}; fields combined "
      "by {}).\n\n"
      "| channel | model | nearest case | {} | model / best baseline |\n|---|---|---|---|---|\n",
      compared.empty()
          ? fmt::format("all {} cases, which the model trained on (each baseline without the "
                        "case itself)",
                        cases)
          : fmt::format("the {} cases the model did not train on", compared.size()),
      request.baseline_neighbours, fmt::join(b.parameters, ", "), b.combined, idw);
  for (long c = 0; c < nc; ++c) {
    const double best = std::min(nearest_median[c], idw_median[c]);
    ratio.push_back(model_median[c] / best);
    table << fmt::format("| {} | {} | {} | {} | {} |\n", channels[c], error_cell(model_median[c]),
                         error_cell(nearest_median[c]), error_cell(idw_median[c]),
                         std::isfinite(ratio.back()) ? fmt::format("{:.3f}", ratio.back())
                         : best == 0                 ? "∞ (a baseline is exact)"
                                                     : "undefined");
  }
  report.summary = {
      {"parameters", b.parameters},
      {"combined_by", b.combined},
      {"neighbours", request.baseline_neighbours},
      {"compared_cases", compared.empty() ? cases : static_cast<long>(compared.size())},
      {"compared_on",
       compared.empty() ? "all cases, each without itself" : "cases the model did not train on"},
      {"model_median", by_channel(channels, model_median)},
      {"nearest_case_median", by_channel(channels, nearest_median)},
      {idw + "_median", by_channel(channels, idw_median)},
      {"model_over_best_baseline", by_channel(channels, ratio)}};
  report.table = table.str();
  spdlog::info("{}", report.table);
  return report;
}

// case_errors.csv and (for airfoil sweeps) airfrans.md in the output folder, listed in
// results["outputs"].
void write_field_evaluation_files(const std::filesystem::path& output_dir, const std::string& csv,
                                  const std::string& airfrans, const std::string& baselines,
                                  nlohmann::json& results) {
  std::filesystem::create_directories(output_dir);
  write_text_atomically(output_dir / "case_errors.csv", csv);
  results["outputs"] = {{"case_errors_csv", (output_dir / "case_errors.csv").string()}};
  if (!baselines.empty()) {
    write_text_atomically(output_dir / "baselines.md", baselines);
    results["outputs"]["baselines_md"] = (output_dir / "baselines.md").string();
  }
  if (!airfrans.empty()) {
    write_text_atomically(output_dir / "airfrans.md", airfrans);
    results["outputs"]["airfrans_md"] = (output_dir / "airfrans.md").string();
  }
}

void FieldFamily::evaluate(const EvaluateRequest& request, nlohmann::json& results) {
  auto model = surrogates::Surrogate::load(request.model);
  const auto& metadata = model->metadata();
  const FieldModelData recorded = field_model_data(metadata, request.model);
  const std::string& type = recorded.type;
  const FieldDataset data = load_field_evaluation_data(request, metadata, recorded);
  if (!data.unconverged_cases_left_out.empty())
    spdlog::warn("data: left out {} unconverged case(s) ({}), as in training",
                 data.unconverged_cases_left_out.size(),
                 fmt::join(data.unconverged_cases_left_out, ", "));
  if (data.test.rows() == 0)
    throw InputError(request.data.string() + ": no case to evaluate the model on");
  // A grid network needs the grid it was trained on (as the couplers check).
  model->check_fits(data.input_domains, data.inputs.names, data.outputs.names);

  const torch::Tensor prediction = predict_split(*model, data, data.test);
  const torch::Tensor truth = data.physical_targets(data.test);
  const std::vector<std::string>& channels = data.outputs.names;
  const long cases = static_cast<long>(data.test_cases.size());
  const std::vector<torch::Tensor> p_cases = field_rows_per_case(prediction, data, cases);
  const std::vector<torch::Tensor> t_cases = field_rows_per_case(truth, data, cases);
  const auto model_errors = case_errors(p_cases, t_cases);
  std::vector<double> medians, worst;
  case_medians(model_errors, {}, static_cast<long>(channels.size()), medians, worst);
  const nlohmann::json by_group = field_errors_by_case_group(metadata, data, p_cases, t_cases);
  results["family"] = "field";
  results["cases"] = cases;
  results["by_case_group"] = by_group;
  results["unconverged_cases_left_out"] = data.unconverged_cases_left_out;
  results["relative_l2"] = by_channel(channels, relative_l2(prediction, truth));
  results["absolute_rms"] = by_channel(channels, absolute_rms(prediction, truth));
  results["zero_reference_fraction"] = kZeroReferenceFraction;
  results["case_relative_l2_median"] = by_channel(channels, medians);
  results["case_relative_l2_max"] = by_channel(channels, worst);
  const FieldBaselineReport baselines =
      field_baseline_report(request, metadata, data, p_cases, t_cases, model_errors);
  results["baselines"] = baselines.summary;
  const std::string csv = field_case_errors_csv(
      data, model_errors, baselines.nearest, baselines.interpolated, request.baseline_neighbours);
  // Airfoil sweeps: AirfRANS's scores (forces from the predicted fields, Spearman ρ, ...).
  std::string airfrans;
  if (type == "sweep") {
    results["airfrans"] =
        airfrans_metrics({request.data, data.test_cases, p_cases, t_cases, data.outputs});
    airfrans = airfrans_table(results["airfrans"]);
    if (!results["airfrans"].contains("skipped")) spdlog::info("{}", airfrans);
  }
  if (request.runtime.root() && !request.output_dir.empty())
    write_field_evaluation_files(request.output_dir, csv, airfrans, baselines.table, results);
}

}  // namespace

FamilyRegistry::Entry field_family_entry() {
  return {[] { return std::make_unique<FieldFamily>(); }, field_config_schema(),
          "per-cell fields of a steady solver's sweep (airfoil surrogates)"};
}

}  // namespace surrox::training
