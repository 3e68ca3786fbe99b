// surrox train CONFIG: train a surrogate on a sweep dataset. Writes the model with its
// metadata (model.pt), metrics.csv, loss.png, checkpoint.pt and summary.json (test-set errors
// per output channel, throughput). Data-parallel under mpirun: the same global batches split
// over the ranks; only rank 0 writes.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "apps/command.hpp"
#include "apps/loss_plot.hpp"
#include "apps/train_config.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/yaml_json.hpp"
#include "io/case_file.hpp"
#include "surrogates/networks.hpp"
#include "surrogates/surrogate.hpp"
#include "training/collective_data_parallel.hpp"
#include "training/field_dataset.hpp"
#include "training/trainer.hpp"

namespace surrox::apps {
namespace {}  // namespace

const Schema& train_config_schema() {
  static const Schema schema = [] {
    Schema root("A training config for `surrox train`: the data, the network and how to train it.");
    Schema runtime("Threads and logging.");
    runtime.integer("threads", "LibTorch threads per rank; 0: cores on the node / ranks on it")
        .at_least(0)
        .fallback("0");
    runtime.choice("log_level", {"trace", "debug", "info", "warn", "error", "off"}, "log level")
        .fallback("info");
    root.section("runtime", runtime, "threads and logging");
    root.section("data", training::FieldDataset::schema(), "the sweep dataset and its channels");
    root.component("network", surrogates::networks(), "the network architecture")
        .default_type("mlp");
    root.section("training", training::Trainer::schema(),
                 "optimizer, schedule, loss, epochs, checkpoints");
    return root;
  }();
  return schema;
}

namespace {

// ‖prediction − truth‖₂ / ‖truth‖₂ per output channel, in physical units, over a whole split.
nlohmann::json relative_l2(surrogates::Surrogate& model, const training::FieldDataset& data,
                           const training::TensorSet& split) {
  nlohmann::json errors = nlohmann::json::object();
  if (split.rows() == 0) return errors;
  torch::NoGradGuard no_grad;
  const auto raw_inputs = data.inputs.invert(split.inputs);
  const auto truth = data.outputs.invert(split.targets);
  std::vector<torch::Tensor> parts;
  const long chunk = 65536;
  for (long b = 0; b < raw_inputs.size(0); b += chunk)
    parts.push_back(model.predict(raw_inputs.slice(0, b, std::min(raw_inputs.size(0), b + chunk))));
  const auto prediction = torch::cat(parts);
  for (std::size_t c = 0; c < data.outputs.names.size(); ++c) {
    const auto t = truth.select(1, static_cast<long>(c)),
               p = prediction.select(1, static_cast<long>(c));
    const double norm = t.norm().item<double>();
    errors[data.outputs.names[c]] =
        norm > 0 ? (p - t).norm().item<double>() / norm : (p - t).norm().item<double>();
  }
  return errors;
}

class TrainCommand final : public Command {
 public:
  std::string name() const override { return "train"; }
  std::string description() const override {
    return "Train a surrogate on a sweep dataset: model.pt (+ metadata), metrics.csv, loss.png, summary.json";
  }
  void configure(CLI::App& app) override {
    app.add_option("config", config_path_, "training config (YAML); see docs/case-reference.md")
        ->required();
    app.add_option("--set", overrides_, "override a config key: --set training.epochs=10")
        ->type_name("KEY.PATH=VALUE");
    app.add_option("--resume", resume_,
                   "continue from a checkpoint.pt of an earlier run of this config");
    app.add_option("--max-epochs", max_epochs_,
                   "stop after this many epochs (with a checkpoint); continue with --resume")
        ->check(CLI::PositiveNumber);
  }
  std::filesystem::path default_output_dir() const override {
    return default_output_for("train-", config_path_.empty() ? "CONFIG" : config_path_);
  }

  nlohmann::json run(Runtime& runtime, const std::filesystem::path& output_dir,
                     nlohmann::json& results) override {
    const io::CaseFile config = io::load_case(config_path_, train_config_schema(), overrides_);
    const CaseNode runtime_node = config.root.section("runtime");
    if (common.threads == 0)
      runtime.set_torch_threads(static_cast<int>(runtime_node.integer("threads")));
    const CaseNode network_node = config.root.section("network");
    const CaseNode training_node = config.root.section("training");
    const surrogates::SampleLayout layout =
        surrogates::layout_of(network_node.type(), network_node.context("type"));

    const training::FieldDataset data =
        training::FieldDataset::load(config.root.section("data"), layout);
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
    const auto& entry =
        surrogates::networks().at(network_node.type(), network_node.context("type"));
    std::shared_ptr<surrogates::Network> network(
        entry.make(network_node, static_cast<long>(data.inputs.names.size()),
                   static_cast<long>(data.outputs.names.size())));
    network->to(data.train.inputs.scalar_type());

    if (runtime.root()) {
      std::filesystem::create_directories(output_dir);
      write_text_atomically(output_dir / "config.resolved.yaml", config.resolved_yaml());
    }
    training::Trainer trainer(training_node, training::collective_data_parallel(runtime.comm()));
    const std::optional<std::filesystem::path> resume =
        resume_.empty() ? std::nullopt : std::optional<std::filesystem::path>(resume_);
    const training::TrainResult fit =
        trainer.fit(*network, data.train, data.validation, output_dir, resume, max_epochs_);

    surrogates::SurrogateMetadata metadata;
    metadata.network = network_node.type();
    YAML::Emitter emitter;
    emitter << YAML::Flow << network_node.yaml();
    metadata.network_yaml = emitter.c_str();
    metadata.layout = layout;
    metadata.input_domains = data.input_domains;
    metadata.inputs = data.inputs;
    metadata.outputs = data.outputs;
    metadata.training = {
        {"config", config_path_},          {"epochs", fit.history.size()},
        {"best_epoch", fit.best_epoch},    {"best_validation_loss", fit.best_validation_loss},
        {"train_cases", data.train_cases}, {"validation_cases", data.validation_cases},
        {"test_cases", data.test_cases}};
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
    results["data_parallel_ranks"] = runtime.size();
    results["test_loss"] = trainer.evaluate(*network, data.test);
    results["test_relative_l2"] = relative_l2(model, data, data.test);
    results["finished"] =
        static_cast<long>(fit.history.size()) >= training_node.integer("epochs") ||
        fit.stopped_early;
    if (runtime.root()) {
      model.save(output_dir / "model.pt");
      results["outputs"] = {{"model", (output_dir / "model.pt").string()},
                            {"metrics_csv", (output_dir / "metrics.csv").string()},
                            {"checkpoint", (output_dir / "checkpoint.pt").string()}};
      const std::string why = plot_loss_curves(output_dir / "metrics.csv", output_dir / "loss.png");
      if (why.empty()) {
        results["outputs"]["loss_png"] = (output_dir / "loss.png").string();
      } else {
        spdlog::warn("no loss.png: {}", why);
        results["outputs"]["loss_png_missing"] = why;
      }
    }
    return yaml_to_json(config.root.yaml());
  }

 private:
  std::string config_path_;
  std::vector<std::string> overrides_;
  std::string resume_;
  long max_epochs_ = 0;
};

}  // namespace

std::unique_ptr<Command> make_train_command() { return std::make_unique<TrainCommand>(); }

}  // namespace surrox::apps
