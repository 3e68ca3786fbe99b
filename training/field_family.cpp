#include "training/field_family.hpp"

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
#include "training/airfrans_metrics.hpp"
#include "training/collective_data_parallel.hpp"
#include "training/field_data_sources.hpp"
#include "training/field_dataset.hpp"
#include "training/loss_plot.hpp"
#include "training/trainer.hpp"

namespace surrox::training {

namespace {

Schema field_config_schema() {
  Schema root(
      "A training config for `surrox train`, family `field`: per-cell (or per-point) fields of a "
      "sweep dataset or of a collection of VTK files, the network and how to train it.");
  root.section("runtime", runtime_config_schema(), "threads and logging");
  root.component("data", field_data_sources(),
                 "the data and its channels: a sweep dataset (type sweep, the default) or a "
                 "collection of VTK/ParaView files (type collection)")
      .default_type(kDefaultFieldDataSource);
  root.component("network", surrogates::networks(), "the network architecture").default_type("mlp");
  root.section("training", Trainer::schema(), "optimizer, schedule, loss, epochs, checkpoints");
  return root;
}

// The model's predictions of a split in physical units, [rows, C] or [cases, C, nj, ni].
torch::Tensor predict_split(surrogates::Surrogate& model, const FieldDataset& data,
                            const TensorSet& split) {
  torch::NoGradGuard no_grad;
  const auto raw_inputs = data.inputs.invert(split.inputs);
  std::vector<torch::Tensor> parts;
  const long chunk = 65536;
  for (long b = 0; b < raw_inputs.size(0); b += chunk)
    parts.push_back(model.predict(raw_inputs.slice(0, b, std::min(raw_inputs.size(0), b + chunk))));
  return torch::cat(parts);
}

// ‖p − t‖₂ / ‖t‖₂ per output channel (‖p − t‖₂ where the truth is zero); dimension 1 is
// the channel.
std::vector<double> relative_l2(const torch::Tensor& prediction, const torch::Tensor& truth) {
  std::vector<double> errors;
  for (long c = 0; c < truth.size(1); ++c) {
    const auto t = truth.select(1, c), p = prediction.select(1, c);
    const double norm = t.norm().item<double>(), error = (p - t).norm().item<double>();
    errors.push_back(norm > 0 ? error / norm : error);
  }
  return errors;
}

nlohmann::json by_channel(const std::vector<std::string>& names,
                          const std::vector<double>& values) {
  nlohmann::json out = nlohmann::json::object();
  for (std::size_t c = 0; c < names.size(); ++c) out[names[c]] = values[c];
  return out;
}

double median_of(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

class FieldFamily final : public SurrogateFamily {
 public:
  void train(const TrainRequest& request, nlohmann::json& results) override;
  void evaluate(const EvaluateRequest& request, nlohmann::json& results) override;
};

void FieldFamily::train(const TrainRequest& request, nlohmann::json& results) {
  const io::CaseFile& config = request.config;
  const auto& output_dir = request.output_dir;
  const CaseNode network_node = config.root.section("network");
  const CaseNode training_node = config.root.section("training");
  const CaseNode data_node = config.root.section("data");
  const surrogates::SampleLayout layout =
      surrogates::layout_of(network_node.type(), network_node.context("type"));

  const FieldDataset data = field_data_sources()
                                .at(data_node.type(), data_node.context("type"))
                                .make()
                                ->load(data_node, layout);
  spdlog::info(
      "data: {} training, {} validation, {} test cases; {} inputs → {} outputs ({} layout)",
      data.train_cases.size(), data.validation_cases.size(), data.test_cases.size(),
      data.inputs.names.size(), data.outputs.names.size(), surrogates::to_string(layout));
  if (!data.unconverged_cases_left_out.empty())
    spdlog::warn(
        "data: left out {} unconverged case(s) ({}); set data.include_unconverged: true to keep them",
        data.unconverged_cases_left_out.size(), fmt::join(data.unconverged_cases_left_out, ", "));
  if (!data.unconverged_cases_kept.empty())
    spdlog::warn(
        "data: training on {} unconverged case(s) ({}) because include_unconverged is true",
        data.unconverged_cases_kept.size(), fmt::join(data.unconverged_cases_kept, ", "));

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
  metadata.layout = layout;
  metadata.input_domains = data.input_domains;
  metadata.inputs = data.inputs;
  metadata.outputs = data.outputs;
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
  results["layout"] = surrogates::to_string(layout);
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
                                                       data.outputs.invert(data.test.targets)));
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
                                        const nlohmann::json& data_section,
                                        const std::string& type) {
  // The training data section with the path replaced: same channels, parameters, dtype and
  // convergence rule, every case evaluated. Models from before data types are sweeps.
  Schema schema("The data section a field model was trained with.");
  schema.component("data", field_data_sources(), "the data and its channels")
      .default_type(kDefaultFieldDataSource);
  const auto source = field_data_sources().at(type, {request.model.string()}).make();
  const io::CaseFile section = io::load_case_text(
      "data: " + data_section.dump(), request.model.string() + " (data section)", schema,
      {"data." + source->data_key() + "=" + std::filesystem::absolute(request.data).string()});
  return source->load_all(section.root.section("data"), metadata.layout, metadata.inputs,
                          metadata.outputs);
}

// Per case [rows, C]: the rows of a case are contiguous (points layout; cases of a file
// collection differ in size) or its own row (grid layout).
std::vector<torch::Tensor> field_rows_per_case(const torch::Tensor& t, const FieldDataset& data,
                                               surrogates::SampleLayout layout, long cases) {
  std::vector<torch::Tensor> parts;
  if (layout == surrogates::SampleLayout::kGrid) {
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

// case_errors.csv's text: each case's relative L2 error per channel; the median and largest
// over the cases per channel go to medians and worst.
std::string field_case_errors_csv(const std::vector<torch::Tensor>& p_cases,
                                  const std::vector<torch::Tensor>& t_cases,
                                  const FieldDataset& data, std::vector<double>& medians,
                                  std::vector<double>& worst) {
  const std::vector<std::string>& channels = data.outputs.names;
  const long cases = static_cast<long>(data.test_cases.size());
  std::vector<std::vector<double>> case_errors(channels.size());
  std::ostringstream csv;
  csv << "case," << fmt::format("{}", fmt::join(channels, ",")) << "\n";
  for (long k = 0; k < cases; ++k) {
    const auto errors = relative_l2(p_cases[k], t_cases[k]);
    csv << data.test_cases[static_cast<std::size_t>(k)];
    for (std::size_t c = 0; c < channels.size(); ++c) {
      case_errors[c].push_back(errors[c]);
      csv << "," << fmt::format("{:.6e}", errors[c]);
    }
    csv << "\n";
  }
  for (const auto& e : case_errors) {
    medians.push_back(median_of(e));
    worst.push_back(*std::max_element(e.begin(), e.end()));
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

// case_errors.csv and (for airfoil sweeps) airfrans.md in the output folder, listed in
// results["outputs"].
void write_field_evaluation_files(const std::filesystem::path& output_dir, const std::string& csv,
                                  const std::string& airfrans, nlohmann::json& results) {
  std::filesystem::create_directories(output_dir);
  write_text_atomically(output_dir / "case_errors.csv", csv);
  results["outputs"] = {{"case_errors_csv", (output_dir / "case_errors.csv").string()}};
  if (!airfrans.empty()) {
    write_text_atomically(output_dir / "airfrans.md", airfrans);
    results["outputs"]["airfrans_md"] = (output_dir / "airfrans.md").string();
  }
}

void FieldFamily::evaluate(const EvaluateRequest& request, nlohmann::json& results) {
  auto model = surrogates::Surrogate::load(request.model);
  const auto& metadata = model->metadata();
  const auto data_section = metadata.training.find("data");
  if (data_section == metadata.training.end() || !data_section->is_object())
    throw InputError(request.model.string() +
                     ": the model does not record its data section (trained before surrox "
                     "0.2 or exported from Python); retrain it with `surrox train` to evaluate it");
  const std::string type = data_section->value("type", std::string(kDefaultFieldDataSource));
  const FieldDataset data = load_field_evaluation_data(request, metadata, *data_section, type);
  if (!data.unconverged_cases_left_out.empty())
    spdlog::warn("data: left out {} unconverged case(s) ({}), as in training",
                 data.unconverged_cases_left_out.size(),
                 fmt::join(data.unconverged_cases_left_out, ", "));
  if (data.test.rows() == 0)
    throw InputError(request.data.string() + ": no case to evaluate the model on");
  // A grid network needs the grid it was trained on (as the couplers check).
  model->check_fits(data.input_domains, data.inputs.names, data.outputs.names);

  const torch::Tensor prediction = predict_split(*model, data, data.test);
  const torch::Tensor truth = data.outputs.invert(data.test.targets);
  const std::vector<std::string>& channels = data.outputs.names;
  const long cases = static_cast<long>(data.test_cases.size());
  const std::vector<torch::Tensor> p_cases =
      field_rows_per_case(prediction, data, metadata.layout, cases);
  const std::vector<torch::Tensor> t_cases =
      field_rows_per_case(truth, data, metadata.layout, cases);
  std::vector<double> medians, worst;
  const std::string csv = field_case_errors_csv(p_cases, t_cases, data, medians, worst);
  const nlohmann::json by_group = field_errors_by_case_group(metadata, data, p_cases, t_cases);
  results["family"] = "field";
  results["cases"] = cases;
  results["by_case_group"] = by_group;
  results["unconverged_cases_left_out"] = data.unconverged_cases_left_out;
  results["relative_l2"] = by_channel(channels, relative_l2(prediction, truth));
  results["case_relative_l2_median"] = by_channel(channels, medians);
  results["case_relative_l2_max"] = by_channel(channels, worst);
  // Airfoil sweeps: AirfRANS's scores (forces from the predicted fields, Spearman ρ, ...).
  std::string airfrans;
  if (type == "sweep") {
    results["airfrans"] =
        airfrans_metrics({request.data, data.test_cases, p_cases, t_cases, data.outputs});
    airfrans = airfrans_table(results["airfrans"]);
    if (!results["airfrans"].contains("skipped")) spdlog::info("{}", airfrans);
  }
  if (request.runtime.root() && !request.output_dir.empty())
    write_field_evaluation_files(request.output_dir, csv, airfrans, results);
}

}  // namespace

FamilyRegistry::Entry field_family_entry() {
  return {[] { return std::make_unique<FieldFamily>(); }, field_config_schema(),
          "per-cell fields of a steady solver's sweep (airfoil surrogates)"};
}

}  // namespace surrox::training
